// Hardening (issue: the false deadlock, operand and bounds checks, honest
// failure outputs): each case runs the warptlm executable on a minimal input
// and checks the exit code, the message and the outputs. The bad-input
// catalogue (docs/bad-inputs.md) points at these cases.
#include "cli_util.hpp"

using namespace cli_util;

namespace {
std::string status_of(const TempDir& d, const std::string& out = "out") {
  const std::string s = slurp(d / (out + "/stats.json"));
  const size_t k = s.rfind("\"status\": \"");
  if (k == std::string::npos) return "";
  const size_t b = k + 11, e = s.find('"', b);
  return s.substr(b, e - b);
}
}  // namespace

// ---------------------------------------------------------------- conservation

TEST_CASE("conservation: a fill lost below the L1 is a deadlock naming the blocks that hold its requests", "[hardening][conservation]") {
  TempDir d;
  auto r = warptlm(d, "run --workload vecadd --size tiny --config gtx480 --out " + q(d / "out"), "");
  REQUIRE(r.code == 0);
  setenv("WARPTLM_TEST_FAULT", "l1_lose_fill", 1);
  r = warptlm(d, "run --workload vecadd --size tiny --config gtx480 --out " + q(d / "out"));
  unsetenv("WARPTLM_TEST_FAULT");
  CHECK(r.code == 1);
  CHECK(contains(r.out, "deadlock in kernel 'vecadd'"));
  CHECK(contains(r.out, "memory blocks holding requests without a response:"));
  CHECK(contains(r.out, ".l1d ("));
  CHECK(status_of(d) == "deadlock");
}

TEST_CASE("conservation: a fill taken twice by the L1 stops the run as a fault at once", "[hardening][conservation]") {
  TempDir d;
  setenv("WARPTLM_TEST_FAULT", "l1_duplicate_fill", 1);
  auto r = warptlm(d, "run --workload vecadd --size tiny --config gtx480 --out " + q(d / "out"));
  unsetenv("WARPTLM_TEST_FAULT");
  CHECK(r.code == 1);
  CHECK(contains(r.out, "memory conservation broken in gpu.sm"));
  CHECK(contains(r.out, "no fill outstanding"));
  CHECK(status_of(d) == "fault");
}

TEST_CASE("conservation: write acknowledgements lost in DRAM fail the end-of-run check of a run that finished", "[hardening][conservation]") {
  TempDir d;
  // a small L2 so that dirty lines are written back to DRAM during the run
  const std::string args = "run --workload vecadd --size tiny --config gtx480 --set l2.slice_size=1024 --out " + q(d / "out");
  auto r = warptlm(d, args);
  REQUIRE(r.code == 0);
  CHECK(contains(slurp(d / "out/stats.json"), "\"dram.writes\""));
  setenv("WARPTLM_TEST_FAULT", "dram_drop_write_ack", 1);
  r = warptlm(d, args);
  unsetenv("WARPTLM_TEST_FAULT");
  CHECK(r.code == 1);
  CHECK(contains(r.out, "memory conservation broken: requests without exactly one response in dram"));
  CHECK(status_of(d) == "fault");
}
