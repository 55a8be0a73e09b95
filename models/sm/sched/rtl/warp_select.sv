// A warp scheduler's issue selection: which of the scheduler's warps issues this cycle, as loose round robin
// (LRR) or greedy-then-oldest (GTO). The candidates (the warps that may issue: the SM's scoreboard, fetch,
// barrier and unit checks have not ruled them out) and every warp's age come in; the selected warp goes out,
// combinationally, in the same cycle. The warp that issued is registered at the rising edge of clk and
// steers the next cycles' selection:
//
//   LRR  the first candidate after the warp that issued last, in slot order, wrapping around; the lowest
//        candidate before any warp has issued.
//   GTO  the warp that issued last while it is a candidate (greedy); otherwise the oldest candidate (the
//        smallest age: the warps' order of arrival on the SM).
//
// A warp's index is its slot within the scheduler (the SM's slot divided by its schedulers). The register
// holds a slot, not a warp: a warp that takes the slot of the one that issued last inherits its place.
//
// FAULT = 1 is a deliberately broken variant for tests only: LRR starts at the warp that issued last
// instead of after it; GTO is not greedy (always the oldest candidate).
module warp_select #(
    parameter int WARPS    = 32,  // warp slots of one scheduler
    parameter int AGE_BITS = 32,  // width of an age
    parameter int POLICY   = 1,   // 0 LRR, 1 GTO
    parameter int FAULT    = 0,   // 1: test-only broken selection (see above)
    // derived: the width of a warp index (not to be overridden)
    parameter int IDX_BITS = (WARPS > 1) ? $clog2(WARPS) : 1
) (
    input  logic                      clk,
    input  logic                      rst_n,        // asynchronous, active low: no warp has issued

    input  logic [WARPS-1:0]          cand,         // the warps that may issue this cycle
    input  logic [WARPS*AGE_BITS-1:0] age,          // warp i's age at [i*AGE_BITS +: AGE_BITS]; smaller is older
    output logic                      sel_valid,    // some candidate is selected (same cycle)
    output logic [IDX_BITS-1:0]       sel_warp,     // the selected warp

    input  logic                      issue_valid,  // a warp issued this cycle ...
    input  logic [IDX_BITS-1:0]       issue_warp    // ... this one: registered at the rising edge
);
  logic                last_valid_q;
  logic [IDX_BITS-1:0] last_q;

  // LRR: the lowest candidate above the last issued slot, else the lowest candidate.
  logic [WARPS-1:0]    after_last;  // the slots after the last issued one (FAULT: from it on)
  logic [WARPS-1:0]    lrr_pool;    // the candidates LRR takes the lowest of
  logic [WARPS-1:0]    lrr_hot;     // that lowest candidate, one-hot
  logic                lrr_valid;
  logic [IDX_BITS-1:0] lrr_warp;

  assign after_last = !last_valid_q ? '0
                    : (FAULT != 0)  ? ~((WARPS'(1) << last_q) - WARPS'(1))
                                    : ~((WARPS'(2) << last_q) - WARPS'(1));
  assign lrr_pool   = |(cand & after_last) ? (cand & after_last) : cand;
  assign lrr_hot    = lrr_pool & (~lrr_pool + WARPS'(1));
  assign lrr_valid  = |cand;
  // the one-hot candidate's index: bit b is set when the hot slot's index has bit b set (one AND-OR tree per
  // index bit over a constant mask of those slots)
  for (genvar b = 0; b < IDX_BITS; b++) begin : g_lrr_index
    logic [WARPS-1:0] with_bit;
    for (genvar i = 0; i < WARPS; i++) begin : g_slot
      assign with_bit[i] = ((i >> b) & 1) != 0;
    end
    assign lrr_warp[b] = |(lrr_hot & with_bit);
  end

  // GTO: the last issued warp while it is a candidate, else the oldest candidate (the lowest slot on a tie).
  logic                gto_valid;
  logic [IDX_BITS-1:0] gto_warp;
  logic                old_found;
  logic [IDX_BITS-1:0] old_warp;
  logic [AGE_BITS-1:0] old_age;
  logic                greedy;

  always_comb begin
    old_found = 1'b0;
    old_warp  = '0;
    old_age   = '1;
    for (int i = 0; i < WARPS; i++) begin
      if (cand[i] && (!old_found || age[i*AGE_BITS +: AGE_BITS] < old_age)) begin
        old_found = 1'b1;
        old_warp  = IDX_BITS'(i);
        old_age   = age[i*AGE_BITS +: AGE_BITS];
      end
    end
    greedy    = (FAULT == 0) && last_valid_q && cand[last_q];
    gto_valid = old_found;
    gto_warp  = greedy ? last_q : old_warp;
  end

  assign sel_valid = (POLICY == 0) ? lrr_valid : gto_valid;
  assign sel_warp  = (POLICY == 0) ? lrr_warp : gto_warp;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      last_valid_q <= 1'b0;
      last_q       <= '0;
    end else if (issue_valid) begin
      last_valid_q <= 1'b1;
      last_q       <= issue_warp;
    end
  end
endmodule
