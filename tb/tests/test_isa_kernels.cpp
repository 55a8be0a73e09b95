// Helpers for the ISA tests: reading test-kernel PTX, the GPU fixture, and
// checks on error messages. See isa_fixture.hpp.
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "isa_fixture.hpp"

#ifndef WARPTLM_SOURCE_DIR
#error "WARPTLM_SOURCE_DIR must name the source tree (set by tb/tests/CMakeLists.txt)"
#endif

namespace warptlm_test {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string kernel_ptx(const char* name) {
  return read_text(std::string(WARPTLM_SOURCE_DIR) + "/tb/tests/kernels/" + name + ".ptx");
}

namespace {
const warptlm::ParamTable& declared_table() {
  warptlm::GpuParams::declare(warptlm::ParamTable::global());
  return warptlm::ParamTable::global();
}
}  // namespace

IsaFixture::IsaFixture(const Settings& settings) : cfg(declared_table()) {
  cfg.set("sim.mode", "functional");
  for (const auto& kv : settings) cfg.set(kv.first, kv.second);
  tb = std::make_unique<warptlm::GpuTestbench>(cfg, stats);
  gpu = &tb->platform();
  dev = &tb->device();
}

IsaFixture::~IsaFixture() = default;

void IsaFixture::load_kernel(const char* name) { dev->load_ptx(kernel_ptx(name), std::string(name) + ".ptx"); }

int line_of(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find(needle) != std::string::npos) return n;
  }
  return 0;
}

bool names_file_line(const std::string& msg, const std::string& file, int line) {
  const std::string key = file + ":" + std::to_string(line);
  for (size_t pos = msg.find(key); pos != std::string::npos; pos = msg.find(key, pos + 1)) {
    size_t after = pos + key.size();
    if (after >= msg.size() || !std::isdigit(static_cast<unsigned char>(msg[after]))) return true;
  }
  return false;
}

bool mentions_address(const std::string& msg, uint64_t addr) {
  const std::string m = lower(msg);
  for (size_t pos = m.find("0x"); pos != std::string::npos; pos = m.find("0x", pos + 2)) {
    size_t end = pos + 2;
    while (end < m.size() && std::isxdigit(static_cast<unsigned char>(m[end]))) ++end;
    if (end == pos + 2 || end - pos - 2 > 16) continue;
    if (std::strtoull(m.substr(pos + 2, end - pos - 2).c_str(), nullptr, 16) == addr) return true;
  }
  return false;
}

std::string lower(const std::string& s) {
  std::string r = s;
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string squeeze(const std::string& s) {
  std::string r;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) r += c;
  return r;
}

bool names_block_thread(const std::string& msg, uint32_t bx, uint32_t by, uint32_t bz, uint32_t tx, uint32_t ty,
                        uint32_t tz) {
  const std::string m = squeeze(lower(msg));
  auto tri = [](uint32_t x, uint32_t y, uint32_t z) {
    return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
  };
  return m.find("block" + tri(bx, by, bz)) != std::string::npos &&
         m.find("thread" + tri(tx, ty, tz)) != std::string::npos;
}

}  // namespace warptlm_test
