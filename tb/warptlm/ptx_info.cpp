// warptlm ptx-info IN.ptx [--regs NAME.regs]: what the loader reads from each
// entry of a PTX file: instructions, parameters, shared and local bytes, and
// the registers per thread it estimates for occupancy (max live 32-bit words
// + 2). With a ptxas register table (scripts/gen-ptx writes NAME.regs) it
// prints the real compiler's count and the estimate's error beside it. With --haws it prints the HAWS
// compiler pass's stall points and hint chains instead (isa/passes/haws_hints.hpp, seed 004 ch. 5).
#include <iomanip>
#include <iostream>
#include <map>
#include <string>

#include "common/errors.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/passes/haws_hints.hpp"
#include "runtime/device.hpp"

namespace warptlm {

int ptx_info_command(int argc, char* argv[]) {
  const char* usage = "usage: warptlm ptx-info IN.ptx [--regs NAME.regs | --haws]\n";
  std::string in, regs_path;
  bool haws = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") { std::cout << usage; return 0; }
    if (a == "--haws") {
      haws = true;
    } else if (a == "--regs") {
      if (i + 1 >= argc) throw InputError(std::string("option --regs needs a value\n") + usage);
      regs_path = argv[++i];
    } else if (!a.empty() && a[0] == '-') {
      throw InputError("unknown option '" + a + "'\n" + usage);
    } else if (in.empty()) {
      in = a;
    } else {
      throw InputError("more than one input file ('" + in + "', '" + a + "')\n" + usage);
    }
  }
  if (in.empty()) throw InputError(std::string("no input PTX file\n") + usage);
  if (haws) {
    for (const auto& k : passes::haws_hints(read_input_file(in, "PTX file"), in)) std::cout << k.text();
    return 0;
  }
  GlobalMemory mem;
  const Module m(read_input_file(in, "PTX file"), in, mem);
  const std::map<std::string, uint32_t> regs =
      regs_path.empty() ? std::map<std::string, uint32_t>{} : parse_register_table(read_input_file(regs_path, "register table"), regs_path);
  std::cout << std::left << std::setw(40) << "entry" << std::right << std::setw(8) << "instrs" << std::setw(8) << "params"
            << std::setw(8) << "shared" << std::setw(8) << "local" << std::setw(10) << "est.regs";
  if (!regs_path.empty()) std::cout << std::setw(8) << "ptxas" << std::setw(8) << "error";
  std::cout << "\n";
  for (const std::string& name : m.kernel_names()) {
    const KernelInfo& k = *m.find_kernel(name);
    std::cout << std::left << std::setw(40) << k.name << std::right << std::setw(8) << k.prog.size() << std::setw(8)
              << k.param_bytes << std::setw(8) << k.static_smem << std::setw(8) << k.local_bytes << std::setw(10)
              << k.regs_per_thread;
    if (!regs_path.empty()) {
      const auto it = regs.find(k.name);
      if (it == regs.end()) std::cout << std::setw(8) << "-" << std::setw(8) << "-";
      else std::cout << std::setw(8) << it->second << std::setw(7) << std::showpos << long(k.regs_per_thread) - long(it->second) << std::noshowpos;
    }
    std::cout << "\n";
  }
  for (const auto& r : m.refused()) std::cout << std::left << std::setw(40) << r.first << " refused: " << r.second.what() << "\n";
  return 0;
}

}  // namespace warptlm
