// Scratchpad-sharing pair-lock arbiter (seed 000, sections 2.5 and 4): one
// lock per sharing pair of thread blocks, holding the id of the block that
// owns the pair's shared scratchpad region, or all ones when it is free.
//
// One request per cycle. The answer (req_granted) is combinational from the
// registered owner of the addressed pair and the request, so it is valid in
// the cycle the request is presented (0 cycles); the owner table changes at
// the next rising edge of clk, and its new value is visible from then on.
//
//   ACQUIRE     first come first served: granted when the lock is free or
//               already held by the requester, who then owns it; otherwise
//               denied and nothing changes (the warp retries next cycle).
//   RELEASE     relssp: granted, and the lock freed, only when the requester
//               owns it; a block that does not hold the lock has no effect.
//   OWNER_DONE  a block finished: if it owned the lock, ownership passes to
//               its partner (req_partner, all ones when it has none).
//
// FAULT_HANDOVER = 1 is a deliberately broken variant for tests only: a
// finishing owner frees the lock instead of handing it to the partner.
module lock_arbiter #(
    parameter int PAIRS          = 8,   // locks in one SM (one per sharing pair)
    parameter int BLOCK_BITS     = 4,   // width of a block id; all ones = free
    parameter int FAULT_HANDOVER = 0,   // 1: test-only broken hand-over (see above)
    // derived: the width of a pair index (not to be overridden)
    parameter int PAIR_BITS      = (PAIRS > 1) ? $clog2(PAIRS) : 1
) (
    input  logic                  clk,
    input  logic                  rst_n,        // asynchronous, active low: every lock free

    // request (one per cycle)
    input  logic                  req_valid,
    input  logic [1:0]            req_kind,     // 0 acquire, 1 release (relssp), 2 owner_done
    input  logic [PAIR_BITS-1:0]  req_pair,
    input  logic [BLOCK_BITS-1:0] req_block,    // the requesting block
    input  logic [BLOCK_BITS-1:0] req_partner,  // owner_done: the partner block, or all ones
    output logic                  req_granted,  // same cycle as the request

    // owner read port (probes and tests)
    input  logic [PAIR_BITS-1:0]  rd_pair,
    output logic [BLOCK_BITS-1:0] rd_owner
);
  localparam logic [1:0] KIND_ACQUIRE    = 2'd0;
  localparam logic [1:0] KIND_RELEASE    = 2'd1;
  localparam logic [1:0] KIND_OWNER_DONE = 2'd2;
  localparam logic [BLOCK_BITS-1:0] FREE = '1;

  // The owner table: PAIRS fields of BLOCK_BITS, pair k at bits [k*BLOCK_BITS +: BLOCK_BITS].
  logic [PAIRS*BLOCK_BITS-1:0] owner_q;

  logic                  pair_ok;
  logic [BLOCK_BITS-1:0] cur_owner;
  logic                  grant;
  logic [BLOCK_BITS-1:0] next_owner;

  // A pair index beyond PAIRS (when PAIRS is not a power of two) is no lock:
  // never granted, nothing written; it reads as free.
  assign pair_ok   = ({1'b0, req_pair} < (PAIR_BITS+1)'(PAIRS));
  assign cur_owner = pair_ok ? owner_q[req_pair*BLOCK_BITS +: BLOCK_BITS] : FREE;

  always_comb begin
    grant      = 1'b0;
    next_owner = cur_owner;
    unique case (req_kind)
      KIND_ACQUIRE: begin
        grant      = (cur_owner == FREE) || (cur_owner == req_block);
        next_owner = req_block;
      end
      KIND_RELEASE: begin
        grant      = (cur_owner == req_block);
        next_owner = FREE;
      end
      KIND_OWNER_DONE: begin
        grant      = (cur_owner == req_block);
        next_owner = (FAULT_HANDOVER != 0) ? FREE : req_partner;
      end
      default: begin
        grant      = 1'b0;
        next_owner = cur_owner;
      end
    endcase
  end

  assign req_granted = req_valid && pair_ok && grant;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      owner_q <= '1;
    end else if (req_granted) begin
      owner_q[req_pair*BLOCK_BITS +: BLOCK_BITS] <= next_owner;
    end
  end

  assign rd_owner = ({1'b0, rd_pair} < (PAIR_BITS+1)'(PAIRS)) ? owner_q[rd_pair*BLOCK_BITS +: BLOCK_BITS] : FREE;
endmodule
