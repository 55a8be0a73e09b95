// The fuzz targets (tb/fuzz/fuzz_targets.hpp) on every kept input and seed, in
// every build (the sanitize preset runs it under ASan and UBSan): each input a
// fuzzer once crashed on, or that a hardening fix refuses, is refused with an
// input error, or, where its name starts with accepted_, is valid input that
// once misbehaved and now loads; every seed (the workloads' PTX, the shipped configs and
// overlays, the run-file seeds) is accepted, so a target that refused
// everything would fail here.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"

namespace fs = std::filesystem;
using namespace warptlm;

namespace {

using Target = bool (*)(const uint8_t*, size_t);

std::vector<fs::path> files_in(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> v;
  for (auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

bool feed(Target t, const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  const std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return t(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

const fs::path kSource = WARPTLM_SOURCE_DIR;

void kept_inputs_refused(Target t, const std::string& target, const std::string& ext) {
  const auto inputs = files_in(kSource / "tb/fuzz/regressions" / target, ext);
  REQUIRE(inputs.size() >= 5);
  for (const fs::path& p : inputs) {
    INFO(p.string());
    CHECK(feed(t, p) == (p.filename().string().rfind("accepted_", 0) == 0));
  }
}

}  // namespace

TEST_CASE("fuzz regressions: every kept PTX input is refused and every workload's PTX loads", "[fuzz]") {
  kept_inputs_refused(fuzz_ptx, "ptx", ".ptx");
  std::vector<fs::path> seeds;
  for (auto& d : fs::directory_iterator(kSource / "tb/workloads"))
    if (d.is_directory())
      for (const fs::path& p : files_in(d.path(), ".ptx")) seeds.push_back(p);
  REQUIRE(seeds.size() >= 10);
  for (const fs::path& p : seeds) {
    INFO(p.string());
    CHECK(feed(fuzz_ptx, p));
  }
}

TEST_CASE("fuzz regressions: every kept config input is refused and every shipped config and overlay loads", "[fuzz]") {
  kept_inputs_refused(fuzz_config, "config", ".yaml");
  for (const char* dir : {"scenarios/configs", "scenarios/overlays"}) {
    const auto seeds = files_in(kSource / dir, ".yaml");
    REQUIRE(seeds.size() >= 4);
    for (const fs::path& p : seeds) {
      INFO(p.string());
      CHECK(feed(fuzz_config, p));
    }
  }
}

TEST_CASE("fuzz regressions: every kept run-file input is refused and every run-file seed is read", "[fuzz]") {
  kept_inputs_refused(fuzz_run_file, "run_file", ".yaml");
  const auto seeds = files_in(kSource / "tb/fuzz/seeds/run_file", ".yaml");
  REQUIRE(seeds.size() >= 3);
  for (const fs::path& p : seeds) {
    INFO(p.string());
    CHECK(feed(fuzz_run_file, p));
  }
}
