// Size presets and the list of workloads.
#include <memory>
#include <string>
#include <vector>

#include "workloads/workload.hpp"

namespace warptlm {

std::unique_ptr<Workload> make_vecadd();
std::unique_ptr<Workload> make_gemv();
std::unique_ptr<Workload> make_histogram_merge();
std::unique_ptr<Workload> make_fwt();
std::unique_ptr<Workload> make_bitonic_sort();
std::unique_ptr<Workload> make_inline_math();
std::unique_ptr<Workload> make_matmul();
std::unique_ptr<Workload> make_reduce_conflict();
std::unique_ptr<Workload> make_reduce_seq();
std::unique_ptr<Workload> make_transpose_naive();
std::unique_ptr<Workload> make_transpose_padded();
std::unique_ptr<Workload> make_histogram();
std::unique_ptr<Workload> make_work_queue();
std::unique_ptr<Workload> make_jacobi2d();
std::unique_ptr<Workload> make_scan();
std::unique_ptr<Workload> make_bfs();
std::unique_ptr<Workload> make_blackscholes();
std::unique_ptr<Workload> make_nw();
std::unique_ptr<Workload> make_backprop();
std::unique_ptr<Workload> make_dct8x8();
std::unique_ptr<Workload> make_ss_backprop();
std::unique_ptr<Workload> make_ss_dct1();
std::unique_ptr<Workload> make_ss_dct3();
std::unique_ptr<Workload> make_ss_nqu();
std::unique_ptr<Workload> make_ss_srad1();
std::unique_ptr<Workload> make_ss_srad2();
std::unique_ptr<Workload> make_ss_fdtd3d();
std::unique_ptr<Workload> make_ss_heartwall();
std::unique_ptr<Workload> make_ss_histogram();
std::unique_ptr<Workload> make_ss_mc();
std::unique_ptr<Workload> make_ss_nw();
std::unique_ptr<Workload> make_ss_dct48();
std::unique_ptr<Workload> make_ss_mc2();
std::unique_ptr<Workload> make_ss_dct2();
std::unique_ptr<Workload> make_ss_dct4();
std::unique_ptr<Workload> make_ss_nw2();
std::unique_ptr<Workload> make_ss_bfs();
std::unique_ptr<Workload> make_ss_btree();
std::unique_ptr<Workload> make_ss_dct5();
std::unique_ptr<Workload> make_ss_gaussian();
std::unique_ptr<Workload> make_ss_nn();
std::unique_ptr<Workload> make_ep_transpose();
std::unique_ptr<Workload> make_ep_transpose_opt();
std::unique_ptr<Workload> make_ep_aes_enc();
std::unique_ptr<Workload> make_ep_aes_dec();
std::unique_ptr<Workload> make_ep_dct();
std::unique_ptr<Workload> make_ep_idct();
std::unique_ptr<Workload> make_ep_dct_opt();
std::unique_ptr<Workload> make_ep_idct_opt();
std::unique_ptr<Workload> make_ep_dct_short();
std::unique_ptr<Workload> make_ep_idct_short();
std::unique_ptr<Workload> make_ep_dct_short_opt();
std::unique_ptr<Workload> make_ep_idct_short_opt();
std::unique_ptr<Workload> make_pb_atax();
std::unique_ptr<Workload> make_pb_bicg();
std::unique_ptr<Workload> make_pb_mvt();
std::unique_ptr<Workload> make_pb_gesummv();
std::unique_ptr<Workload> make_pb_syrk();
std::unique_ptr<Workload> make_pb_syr2k();
std::unique_ptr<Workload> make_pb_gemm();
std::unique_ptr<Workload> make_pb_2mm();
std::unique_ptr<Workload> make_pb_2dconv();
std::unique_ptr<Workload> make_pb_corr();
std::unique_ptr<Workload> make_rd_kmeans();
std::unique_ptr<Workload> make_rd_hotspot();
std::unique_ptr<Workload> make_rd_lud();
std::unique_ptr<Workload> make_rd_backprop();
std::unique_ptr<Workload> make_mr_kmn();
std::unique_ptr<Workload> make_mr_sm();
std::unique_ptr<Workload> make_mr_wc();
std::unique_ptr<Workload> make_rd_nn();
std::unique_ptr<Workload> make_rd_gaussian();
std::unique_ptr<Workload> make_rd_nw();
std::unique_ptr<Workload> make_mr_pvc();
std::unique_ptr<Workload> make_mr_ss();
std::unique_ptr<Workload> make_mr_ii();
std::unique_ptr<Workload> make_matmul_report();
std::unique_ptr<Workload> make_spu_matmul();
std::unique_ptr<Workload> make_spu_jacobi();

const char* size_name(Size s) {
  switch (s) {
    case Size::Tiny: return "tiny";
    case Size::Small: return "small";
    case Size::Medium: return "medium";
    case Size::Large: return "large";
  }
  return "?";
}

bool parse_size(const std::string& s, Size& out) {
  if (s == "tiny") out = Size::Tiny;
  else if (s == "small") out = Size::Small;
  else if (s == "medium") out = Size::Medium;
  else if (s == "large") out = Size::Large;
  else return false;
  return true;
}

const std::vector<std::function<std::unique_ptr<Workload>()>>& workload_factories() {
  static const std::vector<std::function<std::unique_ptr<Workload>()>> factories = {
      make_vecadd,          make_matmul,     make_reduce_conflict, make_reduce_seq, make_transpose_naive,
      make_transpose_padded, make_histogram, make_jacobi2d,        make_scan,       make_bfs,
      make_blackscholes,    make_nw,         make_backprop,        make_dct8x8,     make_gemv,
      make_work_queue,
      // Kernels with the scratchpad-sharing study's footprints (README: "Scratchpad-sharing set").
      make_ss_backprop,     make_ss_dct1,    make_ss_dct3,         make_ss_nqu,     make_ss_srad1,
      make_ss_srad2,        make_ss_fdtd3d,  make_ss_heartwall,    make_ss_histogram, make_ss_mc,
      make_ss_nw,           make_ss_dct48,   make_ss_mc2,     make_ss_dct2,         make_ss_dct4,
      make_ss_nw2,
      // The study's Set-3 controls (Table 2): block count limited by threads, registers or blocks.
      make_ss_bfs,          make_ss_btree,   make_ss_dct5,    make_ss_gaussian,     make_ss_nn,
      // The elastic-pipeline study's kernels (README: "Elastic-pipeline set"), each with its padded control.
      make_ep_transpose,    make_ep_transpose_opt, make_ep_aes_enc,  make_ep_aes_dec,
      make_ep_dct,          make_ep_dct_opt,       make_ep_idct,     make_ep_idct_opt,
      make_ep_dct_short,    make_ep_dct_short_opt, make_ep_idct_short, make_ep_idct_short_opt,
      // PolyBench/GPU-style kernels of CIAO's Table II (README: "PolyBench-style (CIAO Table II)"), two controls last.
      make_pb_atax,         make_pb_bicg,          make_pb_mvt,      make_pb_gesummv,
      make_pb_syrk,         make_pb_syr2k,         make_pb_gemm,     make_pb_2mm,
      make_pb_2dconv,       make_pb_corr,
      // Rodinia-style benchmarks (README: "Rodinia-style set").
      make_rd_kmeans,       make_rd_hotspot,       make_rd_lud,      make_rd_backprop,     make_rd_nn,
      make_rd_gaussian,     make_rd_nw,
      // Mars-style MapReduce applications (README: "Mars-style set").
      make_mr_kmn,          make_mr_sm,            make_mr_wc,       make_mr_pvc,
      make_mr_ss,           make_mr_ii,
      // The SPU mesh's workloads (the spu platform: README "SPU set").
      make_spu_matmul,      make_spu_jacobi,
      // The GPU baseline of the mesh's matrix multiply, at spu_matmul's sizes.
      make_matmul_report,
      // The HAWS thesis's CUDA SDK benchmarks not covered above (README: "Kepler set").
      make_histogram_merge, make_fwt,           make_bitonic_sort, make_inline_math,
  };
  return factories;
}

std::unique_ptr<Workload> make_workload(const std::string& name) {
  for (const auto& make : workload_factories()) {
    std::unique_ptr<Workload> w = make();
    if (name == w->name()) return w;
  }
  return nullptr;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const auto& make : workload_factories()) names.push_back(make()->name());
  return names;
}

void load_workload_ptx(Device& dev, const std::string& name) {
  dev.load_ptx(embedded_ptx(name), name + ".ptx");
  dev.load_compiled_registers(embedded_registers(name), name + ".regs");
}

}  // namespace warptlm
