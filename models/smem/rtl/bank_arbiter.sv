// Shared-memory bank arbiter: serves ONE PART of a warp's shared-memory
// access (a lane group served together, seed 001 section 2.5) on a banked
// array of single-ported banks, one word per bank per cycle, and counts the
// cycles it takes: the part's conflict degree (seed 001 section 2.2).
//
// A request gives every lane's byte address, the lane mask and the bytes per
// lane. A lane touches every word from addr / BANK_BYTES to
// (addr + bytes - 1) / BANK_BYTES, at most WPL words: each lane has WPL word
// ports, port k of lane l (port l*WPL + k) asks for the lane's first word + k.
// The ports a lane does not need, and the lanes outside the mask, ask nothing.
//
// Each serve cycle, in every bank, the lowest pending port's word is
// delivered. With BROADCAST = 1 (full: same-word lanes are served together,
// seed 001 section 2.4, Fermi and later) every pending port asking that same
// word is served in the same cycle; with BROADCAST = 0 (none) only that one
// port. A lane is served in the cycle its last pending word is delivered.
// The part ends after the cycle in which nothing is left pending; a part with
// no word at all (empty mask) still takes one cycle. So the cycles taken are
// the largest number of distinct words (full) or word accesses (none) one
// bank must deliver, at least 1.
//
// Bank of word w (MAPPING): 0 linear, w mod BANKS; 1 xor,
// (w mod BANKS) xor ((w / BANKS) mod BANKS), power-of-two BANKS only.
//
// Timing: a request is taken at the rising edge of clk at which req_valid is
// high, req_ready is high and req_refused is low. Serve cycle c (c = 0, 1,
// ...) is the clock period after the c-th rising edge following that one:
// srv_valid is high, srv_cycle is c and srv_lanes are the lanes served in
// it. At the edge ending the last serve cycle ans_valid rises with
// ans_degree (the cycles taken) and req_ready rises again: a part of degree d
// is answered d + 1 rising edges after its request was taken.
//
// Broadcast limited (one multicast word per cycle, compute capability 1.x) is
// not implemented: BROADCAST = 2 stops elaboration.
//
// FAULT_BROADCAST = 1 is a deliberately broken variant for tests only: the
// banks ignore the broadcast rule (as BROADCAST = 0), so lanes reading the
// same word are counted as conflicting.
module bank_arbiter #(
    parameter int LANES           = 32,  // lanes of one part
    parameter int BANKS           = 32,  // single-ported banks
    parameter int BANK_BYTES      = 4,   // bytes one bank delivers per cycle (a word); a power of two
    parameter int WPL             = 4,   // word ports per lane: the most words one lane may touch
    parameter int ADDR_BITS       = 16,  // width of a lane's byte address in the array
    parameter int BROADCAST       = 1,   // 1 full, 0 none
    parameter int MAPPING         = 0,   // 0 linear, 1 xor
    parameter int FAULT_BROADCAST = 0,   // 1: test-only broken broadcast (see above)
    // derived (not to be overridden): the width of a cycle count, 0 .. LANES*WPL
    parameter int CYC_BITS        = $clog2(LANES * WPL + 1)
) (
    input  logic                       clk,
    input  logic                       rst_n,        // asynchronous, active low: idle, no answer

    // request: one part
    input  logic                       req_valid,
    input  logic [LANES-1:0]           req_mask,     // the part's active lanes
    input  logic [LANES*ADDR_BITS-1:0] req_addr,     // lane l's byte address at [l*ADDR_BITS +: ADDR_BITS]
    input  logic [5:0]                 req_bytes,    // bytes per lane, 1 .. 63
    output logic                       req_ready,    // idle: a request is taken at the next edge
    output logic                       req_refused,  // the request on the pins cannot be served (never taken)

    // service, one cycle at a time
    output logic                       srv_valid,    // a serve cycle
    output logic [CYC_BITS-1:0]        srv_cycle,    // its number within the part, from 0
    output logic [LANES-1:0]           srv_lanes,    // the lanes served in it (their last word delivered)

    // answer: held until the next request is taken
    output logic                       ans_valid,
    output logic [CYC_BITS-1:0]        ans_degree    // the cycles the part took (its conflict degree)
);
  localparam int PORTS     = LANES * WPL;
  localparam int SHIFT     = $clog2(BANK_BYTES);
  localparam int WORD_BITS = ADDR_BITS - SHIFT;
  localparam int BANK_BITS = (BANKS > 1) ? $clog2(BANKS) : 1;
  localparam int PORT_BITS = (PORTS > 1) ? $clog2(PORTS) : 1;
  localparam bit POW2      = (BANKS & (BANKS - 1)) == 0;
  // same-word ports are served together (full broadcast, and not the broken variant)
  localparam bit SAME_WORD = (BROADCAST == 1) && (FAULT_BROADCAST == 0);

  generate
    if (BROADCAST != 0 && BROADCAST != 1) begin : g_bad_broadcast
      $error("bank_arbiter: BROADCAST must be 0 (none) or 1 (full); limited is not implemented");
    end
    if (MAPPING == 1 && !POW2) begin : g_bad_mapping
      $error("bank_arbiter: the xor mapping needs a power-of-two BANKS");
    end
    if ((1 << SHIFT) != BANK_BYTES || WORD_BITS < 1 || WORD_BITS > 32) begin : g_bad_width
      $error("bank_arbiter: BANK_BYTES must be a power of two and ADDR_BITS - log2(BANK_BYTES) in 1 .. 32");
    end
  endgenerate

  // ------------------------------------------------------------------ registers
  logic                 busy_q;               // serving a part
  logic [CYC_BITS-1:0]  cyc_q;                // the serve cycle now
  logic [PORTS-1:0]     pend_q;               // word ports still to be served
  logic [WORD_BITS-1:0] first_q [LANES];      // each lane's first word
  logic                 ans_valid_q;
  logic [CYC_BITS-1:0]  ans_degree_q;

  // ------------------------------------------------------------------ the request
  // Lane l's first word, and which of its word ports it needs.
  logic [WORD_BITS-1:0] ld_first [LANES];
  logic [PORTS-1:0]     ld_pend;
  logic [LANES-1:0]     ld_bad;               // spans more than WPL words, or past the address width
  logic [ADDR_BITS:0]   ld_start [LANES];
  logic [ADDR_BITS:0]   ld_end [LANES];       // last byte
  logic [WORD_BITS:0]   ld_extra [LANES];     // words after the first

  always_comb begin
    for (int l = 0; l < LANES; l++) begin
      ld_start[l] = {1'b0, req_addr[l*ADDR_BITS +: ADDR_BITS]};
      ld_end[l]   = ld_start[l] + (ADDR_BITS + 1)'(req_bytes) - (ADDR_BITS + 1)'(1);
      ld_first[l] = ld_start[l][ADDR_BITS-1:SHIFT];
      ld_extra[l] = ld_end[l][ADDR_BITS:SHIFT] - ld_start[l][ADDR_BITS:SHIFT];
      ld_bad[l]   = ld_end[l][ADDR_BITS] || (ld_extra[l] >= (WORD_BITS + 1)'(WPL));
      for (int k = 0; k < WPL; k++)
        ld_pend[l*WPL + k] = req_mask[l] && (ld_extra[l] >= (WORD_BITS + 1)'(k));
    end
  end

  assign req_ready   = !busy_q;
  assign req_refused = req_valid && ((req_bytes == 6'd0) || |(req_mask & ld_bad));

  // ------------------------------------------------------------------ the banks
  function automatic logic [BANK_BITS-1:0] bank_of(input logic [WORD_BITS-1:0] w);
    logic [2*BANK_BITS-1:0] x;  // the word's two lowest bank-index fields (zero-extended when narrower)
    x = (2*BANK_BITS)'(w);
    if (BANKS == 1) bank_of = {BANK_BITS{1'b0}};
    else if (MAPPING == 1) bank_of = x[BANK_BITS-1:0] ^ x[2*BANK_BITS-1:BANK_BITS];
    else if (POW2) bank_of = x[BANK_BITS-1:0];
    else bank_of = BANK_BITS'(32'(w) % 32'(BANKS));
  endfunction

  logic [WORD_BITS-1:0] port_word [PORTS];
  logic [BANK_BITS-1:0] port_bank [PORTS];
  logic [PORTS-1:0]     served;               // delivered this cycle

  always_comb begin
    for (int p = 0; p < PORTS; p++) begin
      port_word[p] = first_q[p / WPL] + WORD_BITS'(p % WPL);
      port_bank[p] = bank_of(port_word[p]);
    end
  end

  // Each bank's pick: the lowest pending port in it. The scan runs from the
  // highest port down, so the last write to a bank's entry is its lowest.
  generate
    if (SAME_WORD) begin : g_full
      logic [WORD_BITS-1:0] pick_word [BANKS];  // the word each bank delivers this cycle
      always_comb begin
        for (int b = 0; b < BANKS; b++) pick_word[b] = '0;
        for (int p = PORTS - 1; p >= 0; p--)
          if (pend_q[p]) pick_word[port_bank[p]] = port_word[p];
        // every pending port asking its bank's word is served by the same delivery
        for (int p = 0; p < PORTS; p++)
          served[p] = pend_q[p] && (pick_word[port_bank[p]] == port_word[p]);
      end
    end else begin : g_each
      logic [PORT_BITS-1:0] pick_port [BANKS];  // the one port each bank serves this cycle
      always_comb begin
        for (int b = 0; b < BANKS; b++) pick_port[b] = '0;
        for (int p = PORTS - 1; p >= 0; p--)
          if (pend_q[p]) pick_port[port_bank[p]] = PORT_BITS'(p);
        for (int p = 0; p < PORTS; p++)
          served[p] = pend_q[p] && (pick_port[port_bank[p]] == PORT_BITS'(p));
      end
    end
  endgenerate

  logic [PORTS-1:0] pend_next;
  assign pend_next = pend_q & ~served;

  always_comb begin
    for (int l = 0; l < LANES; l++)
      srv_lanes[l] = busy_q && |pend_q[l*WPL +: WPL] && !(|pend_next[l*WPL +: WPL]);
  end

  assign srv_valid  = busy_q;
  assign srv_cycle  = cyc_q;
  assign ans_valid  = ans_valid_q;
  assign ans_degree = ans_degree_q;

  // ------------------------------------------------------------------ the sequence
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      busy_q       <= 1'b0;
      cyc_q        <= '0;
      pend_q       <= '0;
      ans_valid_q  <= 1'b0;
      ans_degree_q <= '0;
      for (int l = 0; l < LANES; l++) first_q[l] <= '0;
    end else if (!busy_q) begin
      if (req_valid && !req_refused) begin
        busy_q      <= 1'b1;
        cyc_q       <= '0;
        pend_q      <= ld_pend;
        ans_valid_q <= 1'b0;
        for (int l = 0; l < LANES; l++) first_q[l] <= ld_first[l];
      end
    end else begin
      pend_q <= pend_next;
      if (pend_next == '0) begin
        busy_q       <= 1'b0;
        ans_valid_q  <= 1'b1;
        ans_degree_q <= cyc_q + CYC_BITS'(1);
      end else begin
        cyc_q <= cyc_q + CYC_BITS'(1);
      end
    end
  end
endmodule
