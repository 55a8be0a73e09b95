// The mesh's functional model (models/cbmesh/mesh_functional.hpp) running real
// PTX (tb/tests/kernels/mesh_wave.cu, nvcc with the SPU instructions through
// inline asm): data crosses CBs step by step, passes hand it over through the
// virtual IUs' spills and restores, partial passes store through the SMs that
// stand in for IUs, and the results equal a CPU reference on several mesh,
// grid and block sizes; and the PTX front end refuses the mesh's PTX where
// the dialect lacks it.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cbmesh/mesh_functional.hpp"
#include "common/errors.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/simt.hpp"

using namespace warptlm;

namespace {

std::string read_ptx(const std::string& rel) {
  std::ifstream f(std::string(WARPTLM_SOURCE_DIR) + "/" + rel);
  REQUIRE(f);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// One kernel in the mesh's dialect, its device memory and its launch.
struct MeshRig {
  GlobalMemory mem;
  std::unique_ptr<Module> mod;
  const KernelInfo* k = nullptr;
  LaunchState L;

  MeshRig(const std::string& ptx, const std::string& origin, const std::string& kernel) {
    PtxDialect d;
    d.mesh = true;
    mod = std::make_unique<Module>(ptx, origin, mem, nullptr, d);
    k = mod->find_kernel(kernel);
    REQUIRE(k);
    L.kernel = k;
    L.mem = &mem;
    L.params.resize(k->param_bytes);
  }
  // tb/... relative to the source tree.
  static std::unique_ptr<MeshRig> from_file(const std::string& rel, const std::string& kernel) {
    return std::make_unique<MeshRig>(read_ptx(rel), rel, kernel);
  }
  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    const uint64_t a = mem.allocate(std::max<uint64_t>(v.size() * sizeof(T), 4));
    if (!v.empty()) mem.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t a, size_t n) {
    std::vector<T> v(n);
    mem.read(a, v.data(), n * sizeof(T));
    return v;
  }
  template <class T>
  void param(size_t i, T v) {
    REQUIRE(i < k->params.size());
    REQUIRE(k->params[i].size == sizeof(T));
    std::memcpy(L.params.data() + k->params[i].offset, &v, sizeof(T));
  }
  MeshRunStats run(const CbMeshGeometry& geo, uint32_t cb_bytes, bool park, uint32_t gx, uint32_t gy, uint32_t bx,
                   uint32_t by, bool leave_early = false) {
    L.grid[0] = gx, L.grid[1] = gy, L.grid[2] = 1;
    L.block[0] = bx, L.block[1] = by, L.block[2] = 1;
    L.threads_per_block = bx * by;
    L.warps_per_block = (bx * by + 31) / 32;
    L.num_sms = geo.units();
    MeshFunctional mf(geo, cb_bytes, MeshRules{park, leave_early, false});
    mf.run(*k, L);
    return mf.stats();
  }
};

std::string wave_ptx() { return read_ptx("tb/tests/kernels/mesh_wave.ptx"); }

struct WaveRun {
  std::vector<uint32_t> out, bottom, right;
  MeshRunStats stats;
};

struct WaveCase {
  uint32_t rows, cols, gx, gy, threads;
  bool park;
};

// The CPU reference of mesh_wave.cu: D(I, J) = D(I - 1, J) + D(I, J - 1) + I gx + J.
WaveRun reference(const WaveCase& c, const std::vector<uint32_t>& top, const std::vector<uint32_t>& left) {
  WaveRun r;
  const uint32_t n = c.threads;
  r.out.assign(size_t(c.gx) * c.gy * n, 0);
  for (uint32_t i = 0; i < c.gy; ++i)
    for (uint32_t j = 0; j < c.gx; ++j)
      for (uint32_t t = 0; t < n; ++t) {
        const uint32_t north = i ? r.out[((i - 1) * c.gx + j) * n + t] : top[j * n + t];
        const uint32_t west = j ? r.out[(i * c.gx + j - 1) * n + t] : left[i * n + t];
        r.out[(i * c.gx + j) * n + t] = north + west + i * c.gx + j;
      }
  for (uint32_t j = 0; j < c.gx; ++j)
    for (uint32_t t = 0; t < n; ++t) r.bottom.push_back(r.out[((c.gy - 1) * c.gx + j) * n + t]);
  for (uint32_t i = 0; i < c.gy; ++i)
    for (uint32_t t = 0; t < n; ++t) r.right.push_back(r.out[(i * c.gx + c.gx - 1) * n + t]);
  return r;
}

// Runs mesh_wave on the functional mesh; `top` and `left` are its inputs.
WaveRun run_wave(const WaveCase& c, const std::vector<uint32_t>& top, const std::vector<uint32_t>& left) {
  MeshRig rig(wave_ptx(), "mesh_wave.ptx", "mesh_wave");
  const uint32_t n = c.threads, steps = c.gx + c.gy + 1;
  const CbMeshGeometry geo(c.rows, c.cols);
  const PassPlan plan(geo, c.gx, c.gy);
  const uint64_t d_out = rig.upload(std::vector<uint32_t>(size_t(c.gx) * c.gy * n)),
                 d_bottom = rig.upload(std::vector<uint32_t>(size_t(c.gx) * n)),
                 d_right = rig.upload(std::vector<uint32_t>(size_t(c.gy) * n));
  rig.param(0, rig.upload(top)), rig.param(1, rig.upload(left));
  rig.param(2, d_out), rig.param(3, d_bottom), rig.param(4, d_right);
  rig.param(5, rig.upload(std::vector<uint32_t>(uint64_t(plan.passes()) * steps * (c.rows + c.cols) * n)));
  rig.param(6, c.rows), rig.param(7, c.cols);
  WaveRun r;
  r.stats = rig.run(geo, 4 * n, c.park, c.gx, c.gy, n, 1);
  r.out = rig.download<uint32_t>(d_out, size_t(c.gx) * c.gy * n);
  r.bottom = rig.download<uint32_t>(d_bottom, size_t(c.gx) * n);
  r.right = rig.download<uint32_t>(d_right, size_t(c.gy) * n);
  return r;
}

std::vector<uint32_t> inputs(size_t words, uint32_t seed) {
  std::vector<uint32_t> v(words);
  uint32_t x = seed;
  for (auto& w : v) w = (x = x * 1664525u + 1013904223u) >> 20;
  return v;
}

}  // namespace

TEST_CASE("Mesh functional model: a wavefront through the CBs equals its CPU reference on several meshes and grids",
          "[cbmesh][meshrun]") {
  const WaveCase cases[] = {
      {4, 4, 4, 4, 32, false},  // one pass: real loaders and storers only
      {4, 4, 8, 8, 32, false},  // 4 passes: every kind of virtual IU
      {4, 4, 8, 8, 32, true},   // the same with parked virtual IUs (restart)
      {4, 4, 6, 5, 64, false},  // partial passes: SMs stand in for the east and south IUs
      {2, 3, 7, 5, 32, true},   // a mesh that is not square
      {1, 1, 3, 2, 32, false},  // one SM: every block in its own pass
  };
  for (const WaveCase& c : cases) {
    CAPTURE(c.rows, c.cols, c.gx, c.gy, c.threads, c.park);
    const auto top = inputs(size_t(c.gx) * c.threads, 7), left = inputs(size_t(c.gy) * c.threads, 11);
    const WaveRun want = reference(c, top, left);
    const WaveRun got = run_wave(c, top, left);
    CHECK(got.out == want.out);
    CHECK(got.bottom == want.bottom);
    CHECK(got.right == want.right);
    const uint32_t passes = ((c.gx + c.cols - 1) / c.cols) * ((c.gy + c.rows - 1) / c.rows);
    CHECK(got.stats.passes == passes);
    CHECK(got.stats.syncs_per_pass == c.gx + c.gy + 1);  // regspillnb: pass 0's count
    CHECK(got.stats.syncs == uint64_t(passes) * (c.gx + c.gy + 1));
    CHECK(got.stats.compute_blocks == uint64_t(c.gx) * c.gy);
    if (passes > 1) CHECK(got.stats.virtual_blocks > 0);  // the hand-over between passes was exercised
  }
}

TEST_CASE("Mesh functional model: the wavefront's check fails when the CBs ignore the step parity or no VIU runs",
          "[cbmesh][meshrun]") {
  // Test-only faults (WARPTLM_TEST_FAULT): the check above must catch a mesh
  // whose CB halves do not switch (a store would never meet its load) and a
  // run-time that drops the virtual IUs (nothing crosses a pass boundary).
  const WaveCase c{2, 2, 4, 4, 32, false};
  const auto top = inputs(size_t(c.gx) * c.threads, 3), left = inputs(size_t(c.gy) * c.threads, 5);
  const WaveRun want = reference(c, top, left);
  REQUIRE(run_wave(c, top, left).out == want.out);
  for (const char* fault : {"cbmesh_one_half", "cbmesh_no_handover"}) {
    CAPTURE(fault);
    setenv("WARPTLM_TEST_FAULT", fault, 1);
    WaveRun got;
    try {
      got = run_wave(c, top, left);
    } catch (...) {
      unsetenv("WARPTLM_TEST_FAULT");
      throw;
    }
    unsetenv("WARPTLM_TEST_FAULT");
    CHECK(got.out != want.out);
    // The first pass's blocks never need a hand-over: only its later passes differ.
    if (std::string(fault) == "cbmesh_no_handover") {
      for (uint32_t i = 0; i < 2; ++i)
        for (uint32_t j = 0; j < 2; ++j)
          for (uint32_t t = 0; t < c.threads; ++t) {
            const size_t e = (size_t(i) * c.gx + j) * c.threads + t;
            CHECK(got.out[e] == want.out[e]);
          }
    }
  }
}

TEST_CASE("PTX front end: the mesh's instructions, spaces and registers are refused outside a mesh platform",
          "[cbmesh][meshrun][ptx]") {
  GlobalMemory mem;
  try {
    Module m(wave_ptx(), "mesh_wave.ptx", mem);
    FAIL("the gpu dialect accepted the mesh's PTX");
  } catch (const InputError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("mesh_wave.ptx:") != std::string::npos);
    CHECK(msg.find("--platform spu") != std::string::npos);
  }
  const char* pieces[] = {"ld.cbv.u32 %r1, [%r2];", "st.cbh.u32 [%r2], %r1;", "bar.blocksync 0;",
                          "bar.unleashvius 0;", "mov.u32 %r1, %regcspillnb;"};
  for (const char* p : pieces) {
    CAPTURE(p);
    const std::string ptx = std::string(".version 7.5\n.target sm_75\n.address_size 64\n") +
                            ".visible .entry k()\n{\n.reg .b32 %r<4>;\nmov.u32 %r2, 0;\n" + p + "\nret;\n}\n";
    bool refused = false;
    try {
      Module m(ptx, "piece.ptx", mem);
    } catch (const InputError& e) {
      refused = std::string(e.what()).find("piece.ptx:8") != std::string::npos;
    }
    CHECK(refused);
    PtxDialect d;
    d.mesh = true;
    Module ok(ptx, "piece.ptx", mem, nullptr, d);  // the mesh's dialect has it
    CHECK(ok.find_kernel("k"));
  }
  // Only ld and st reach a CB.
  const std::string atom = ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<4>;\n"
                           "atom.cbv.add.u32 %r1, [%r2], 1;\nret;\n}\n";
  PtxDialect d;
  d.mesh = true;
  CHECK_THROWS_AS(Module(atom, "atom.ptx", mem, nullptr, d), InputError);
}

// ---- the SPU workloads (tb/workloads/spu_matmul, spu_jacobi) on the functional mesh

namespace {

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t x = seed;
  for (auto& f : v) f = float((x = x * 1664525u + 1013904223u) >> 9) / float(1u << 23) - 0.5f;
  return v;
}

}  // namespace

TEST_CASE("SPU matrix multiply: A flows east and B south through the CBs; C equals the CPU's bit for bit",
          "[cbmesh][meshrun][workload]") {
  struct Case {
    uint32_t rows, cols, m, n, k, t;
    bool park, leave = false;  // spu.restart; spu.skip_trailing_syncs
  };
  const Case cases[] = {
      {4, 4, 64, 64, 64, 16, false},   // one pass
      {4, 4, 96, 96, 96, 16, true},    // 6 x 6 blocks: 4 passes, two of them partial
      {4, 4, 128, 64, 32, 8, false},   // rectangular, 8 x 8 tiles: 16 x 8 blocks, 4 passes
      {2, 3, 48, 40, 24, 8, true},     // a 2 x 3 mesh
      {1, 1, 16, 16, 48, 8, false},    // one SM, long k
      // Units leave after their last CB access: passes of differing counts, the spill slots by the schedule.
      {4, 4, 96, 96, 96, 16, false, true},
      {4, 4, 128, 64, 32, 8, true, true},
      {2, 3, 48, 40, 24, 8, false, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.rows, c.cols, c.m, c.n, c.k, c.t, c.park, c.leave);
    const auto a = random_floats(size_t(c.m) * c.k, 1), b = random_floats(size_t(c.k) * c.n, 2);
    // The device's order: for each tile pair q, for p in the tile, acc = fma(a, b, acc).
    std::vector<float> want(size_t(c.m) * c.n);
    for (uint32_t i = 0; i < c.m; ++i)
      for (uint32_t j = 0; j < c.n; ++j) {
        float acc = 0.0f;
        for (uint32_t p = 0; p < c.k; ++p) acc = std::fma(a[size_t(i) * c.k + p], b[size_t(p) * c.n + j], acc);
        want[size_t(i) * c.n + j] = acc;
      }
    auto rigp = MeshRig::from_file("tb/workloads/spu_matmul/spu_matmul.ptx", "spu_matmul");
    MeshRig& rig = *rigp;
    const CbMeshGeometry geo(c.rows, c.cols);
    const uint32_t gx = c.n / c.t, gy = c.m / c.t, steps = gx + gy + c.k / c.t - 1;
    const PassPlan plan(geo, gx, gy);
    const uint32_t cb_words = c.t * c.t;
    const uint64_t d_a = rig.upload(a), d_b = rig.upload(b), d_c = rig.upload(std::vector<float>(want.size()));
    const uint64_t d_gcb = rig.upload(std::vector<uint32_t>(size_t(plan.passes()) * steps * (c.rows + c.cols) * cb_words));
    rig.param(0, d_a), rig.param(1, d_b), rig.param(2, d_c);
    rig.param(3, c.m), rig.param(4, c.n), rig.param(5, c.k);
    rig.param(6, d_gcb), rig.param(7, c.rows), rig.param(8, c.cols), rig.param(9, uint32_t(c.leave));
    const MeshRunStats st = rig.run(geo, 4 * cb_words, c.park, gx, gy, c.t, c.t, c.leave);
    const auto got = rig.download<float>(d_c, want.size());
    CHECK(std::memcmp(got.data(), want.data(), want.size() * 4) == 0);
    CHECK(st.passes == plan.passes());
    // Leaving early, a pass performs as many synchronisations as its last block (I, J) needs,
    // I + J + k / T + 1 (the kernel's comment); otherwise each performs the schedule's length.
    uint64_t pass_syncs = 0, first_pass = 0;
    for (uint32_t py = 0; py < (gy + c.rows - 1) / c.rows; ++py)
      for (uint32_t px = 0; px < (gx + c.cols - 1) / c.cols; ++px) {
        const uint64_t last_i = std::min(c.rows * (py + 1), gy) - 1, last_j = std::min(c.cols * (px + 1), gx) - 1;
        const uint64_t n = c.leave ? last_i + last_j + c.k / c.t + 1 : steps;
        if (py == 0 && px == 0) first_pass = n;
        pass_syncs += n;
      }
    CHECK(st.syncs == pass_syncs);
    CHECK(st.syncs_per_pass == first_pass);
    if (c.leave && plan.passes() > 1) CHECK(st.syncs < uint64_t(plan.passes()) * steps);
    CHECK(st.compute_blocks == uint64_t(gx) * gy);
    if (plan.passes() > 1) CHECK(st.virtual_blocks > 0);
  }
}

TEST_CASE("SPU Jacobi sweep: halos pass north-west to south-east through the CBs; equals the CPU's bit for bit",
          "[cbmesh][meshrun][workload]") {
  struct Case {
    uint32_t rows, cols, nx, ny, t;
    bool park, leave = false;  // spu.restart; spu.skip_trailing_syncs (the real IUs leave at once)
  };
  const Case cases[] = {
      {4, 4, 64, 64, 16, false},  // one pass
      {4, 4, 96, 80, 16, true},   // 6 x 5 blocks: partial passes, parked virtual IUs
      {2, 2, 48, 40, 8, false},   // 6 x 5 blocks of 8 x 8 on 2 x 2: 9 passes
      {3, 2, 32, 64, 8, true},
      {2, 2, 48, 40, 8, false, true},
      {4, 4, 96, 80, 16, true, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.rows, c.cols, c.nx, c.ny, c.t, c.park, c.leave);
    const auto in = random_floats(size_t(c.nx) * c.ny, 3);
    std::vector<float> want(in.size());
    for (uint32_t y = 0; y < c.ny; ++y)
      for (uint32_t x = 0; x < c.nx; ++x) {
        const size_t e = size_t(y) * c.nx + x;
        if (y == 0 || x == 0 || y == c.ny - 1 || x == c.nx - 1) {
          want[e] = in[e];
          continue;
        }
        float sum = in[e];
        sum += in[e - c.nx];
        sum += in[e + c.nx];
        sum += in[e - 1];
        sum += in[e + 1];
        want[e] = 0.2f * sum;
      }
    auto rigp = MeshRig::from_file("tb/workloads/spu_jacobi/spu_jacobi.ptx", "spu_jacobi");
    MeshRig& rig = *rigp;
    const CbMeshGeometry geo(c.rows, c.cols);
    const uint32_t gx = c.nx / c.t, gy = c.ny / c.t, steps = 2;
    const PassPlan plan(geo, gx, gy);
    const uint32_t cb_words = c.t * c.t;  // at least 2 (t + 2), a multiple of the threads
    const uint64_t d_in = rig.upload(in), d_out = rig.upload(std::vector<float>(in.size(), -1.0f));
    const uint64_t d_gcb = rig.upload(std::vector<uint32_t>(size_t(plan.passes()) * steps * (c.rows + c.cols) * cb_words));
    rig.param(0, d_in), rig.param(1, d_out), rig.param(2, c.nx), rig.param(3, c.ny);
    rig.param(4, d_gcb), rig.param(5, cb_words), rig.param(6, c.rows), rig.param(7, c.cols);
    rig.param(8, uint32_t(c.leave));
    const MeshRunStats st = rig.run(geo, 4 * cb_words, c.park, gx, gy, c.t, c.t, c.leave);
    const auto got = rig.download<float>(d_out, want.size());
    CHECK(std::memcmp(got.data(), want.data(), want.size() * 4) == 0);
    CHECK(st.syncs_per_pass == steps);
    CHECK(st.cb_loads > 0);
    if (plan.passes() > 1) CHECK(st.virtual_blocks > 0);
  }
}

TEST_CASE("Mesh functional model: an interface unit has no FPU, SFU or shared memory (sec. 5); SMs have them",
          "[cbmesh][meshrun]") {
  // Every unit of a 1 x 1 mesh runs kernel k; `op` runs where %regiu is `on_iu` (setp.ne: the IUs; setp.eq: the SM).
  auto run_with = [](const std::string& op, const char* on = "ne") {
    const std::string ptx = std::string(".version 7.5\n.target sm_75\n.address_size 64\n") +
                            ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .f32 %f<4>;\n.reg .pred %p<2>;\n"
                            ".shared .align 4 .b8 s[16];\n"
                            "mov.u32 %r1, %regiu;\nsetp." + on + ".u32 %p1, %r1, 0;\nmov.f32 %f2, 0f3F800000;\n"
                            "mov.u32 %r2, 0;\n@%p1 " + op + "\nbar.blocksync 0;\nret;\n}\n";
    MeshRig rig(ptx, "reduced.ptx", "k");
    rig.run(CbMeshGeometry(1, 1), 64, false, 1, 1, 1, 1);
  };
  CHECK_NOTHROW(run_with("mov.f32 %f1, %f2;"));  // a move needs no FPU
  CHECK_NOTHROW(run_with("add.u32 %r3, %r2, 1;"));
  CHECK_THROWS_WITH(run_with("add.f32 %f1, %f2, %f2;"), Catch::Contains("iu_north0") && Catch::Contains("FPU") &&
                                                            Catch::Contains("reduced.ptx:14"));
  CHECK_THROWS_WITH(run_with("sqrt.approx.f32 %f1, %f2;"), Catch::Contains("SFU"));
  CHECK_THROWS_WITH(run_with("st.shared.u32 [s], %r2;"), Catch::Contains("shared memory"));
  // An SM runs the same instructions: only the IUs are refused.
  CHECK_NOTHROW(run_with("add.f32 %f1, %f2, %f2;", "eq"));
}
