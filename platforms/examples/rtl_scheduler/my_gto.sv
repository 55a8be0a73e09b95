// An architect's own warp scheduler issue selection, greedy-then-oldest, designed as a tournament: the
// candidates' ages meet in pairs, level by level, in a binary tree of comparators (log2 W levels deep instead
// of a chain of W), and the greedy warp, while it is a candidate, wins outright. Same ports as WarpTLM's
// warp_select.sv, so WarpTLM's transactor puts it in the SM (docs/rtl.md, "Bring your own RTL").
module my_gto #(
    parameter int WARPS    = 32,
    parameter int AGE_BITS = 32,
    parameter int IDX_BITS = (WARPS > 1) ? $clog2(WARPS) : 1
) (
    input  logic                      clk,
    input  logic                      rst_n,
    input  logic [WARPS-1:0]          cand,
    input  logic [WARPS*AGE_BITS-1:0] age,
    output logic                      sel_valid,
    output logic [IDX_BITS-1:0]       sel_warp,
    input  logic                      issue_valid,
    input  logic [IDX_BITS-1:0]       issue_warp
);
  // Level l of the tree has 2^l nodes (level IDX_BITS: the leaves, one per slot and WARPS rounded up to a
  // power of two; level 0: the winner); node k
  // holds the best candidate under it: whether there is one, its slot and its age.
  for (genvar l = IDX_BITS; l >= 0; l--) begin : g_level
    localparam int NODES = 1 << l;
    logic [NODES-1:0]          valid;
    logic [NODES*IDX_BITS-1:0] warp;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [NODES*AGE_BITS-1:0] old;  // (the winner's age is not needed)
    /* verilator lint_on UNUSEDSIGNAL */
    if (l == IDX_BITS) begin : g_leaves
      for (genvar i = 0; i < NODES; i++) begin : g_leaf
        if (i < WARPS) begin : g_slot
          assign valid[i]                       = cand[i];
          assign old[i*AGE_BITS +: AGE_BITS]    = age[i*AGE_BITS +: AGE_BITS];
        end else begin : g_none
          assign valid[i]                       = 1'b0;
          assign old[i*AGE_BITS +: AGE_BITS]    = '1;
        end
        assign warp[i*IDX_BITS +: IDX_BITS] = IDX_BITS'(i);
      end
    end else begin : g_matches
      // a match: the older of two (the left, lower slot, on a tie)
      for (genvar k = 0; k < NODES; k++) begin : g_match
        logic                left_valid, right_valid, left_wins;
        logic [AGE_BITS-1:0] left_age, right_age;
        assign left_valid  = g_level[l+1].valid[2*k];
        assign right_valid = g_level[l+1].valid[2*k+1];
        assign left_age    = g_level[l+1].old[(2*k)*AGE_BITS +: AGE_BITS];
        assign right_age   = g_level[l+1].old[(2*k+1)*AGE_BITS +: AGE_BITS];
        assign left_wins   = left_valid && (!right_valid || left_age <= right_age);
        assign valid[k]    = left_valid || right_valid;
        assign warp[k*IDX_BITS +: IDX_BITS] = left_wins ? g_level[l+1].warp[(2*k)*IDX_BITS +: IDX_BITS]
                                                        : g_level[l+1].warp[(2*k+1)*IDX_BITS +: IDX_BITS];
        assign old[k*AGE_BITS +: AGE_BITS]  = left_wins ? left_age : right_age;
      end
    end
  end

  // greedy: the warp that issued last, while it is a candidate
  logic                greedy_q;
  logic [IDX_BITS-1:0] greedy_warp_q;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      greedy_q      <= 1'b0;
      greedy_warp_q <= '0;
    end else if (issue_valid) begin
      greedy_q      <= 1'b1;
      greedy_warp_q <= issue_warp;
    end
  end
  logic greedy_now;
  assign greedy_now = greedy_q && cand[greedy_warp_q];
  assign sel_valid  = g_level[0].valid[0];
  assign sel_warp   = greedy_now ? greedy_warp_q : g_level[0].warp[0 +: IDX_BITS];
endmodule
