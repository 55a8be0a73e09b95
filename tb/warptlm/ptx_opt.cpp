// warptlm ptx-opt IN.ptx [-o OUT.ptx] [--threshold T]: the scratchpad-sharing
// compiler passes (models/isa/passes) as a PTX-to-PTX tool. Writes the
// rewritten PTX (to stdout without -o) and prints what the passes did (to
// stdout with -o, else to stderr). The input first goes through the loader
// `warptlm run` uses (Module: the parser, the linker and the load-time
// verifier), so ptx-opt refuses what a run would, with the same message.
#include <fstream>
#include <iostream>
#include <string>

#include "common/errors.hpp"
#include "common/params.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/passes/passes.hpp"

namespace warptlm {

int ptx_opt_command(int argc, char* argv[]) {
  const char* usage = "usage: warptlm ptx-opt IN.ptx [-o OUT.ptx] [--threshold T]   (0 < T < 1, default 0.1)\n";
  std::string in, out, tval = "0.1";
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const std::string& opt) -> std::string {
      if (i + 1 >= argc) throw InputError("option " + opt + " needs a value\n" + usage);
      return argv[++i];
    };
    if (a == "-h" || a == "--help") { std::cout << usage; return 0; }
    else if (a == "-o" || a == "--out") out = value(a);
    else if (a.rfind("--out=", 0) == 0) out = a.substr(6);
    else if (a == "--threshold" || a == "-t") tval = value(a);
    else if (a.rfind("--threshold=", 0) == 0) tval = a.substr(12);
    else if (!a.empty() && a[0] == '-') throw InputError("unknown option '" + a + "'\n" + usage);
    else if (in.empty()) in = a;
    else throw InputError("more than one input file ('" + in + "', '" + a + "')\n" + usage);
  }
  if (in.empty()) throw InputError(std::string("no input PTX file\n") + usage);
  double t = 0;
  if (!parse_float(tval, t) || !(t > 0 && t < 1))
    throw InputError(Place{"", 0, "--threshold"}, "threshold '" + tval + "' is not a number in (0, 1)");
  const std::string text = read_input_file(in, "PTX file");
  {
    // Every kernel must load as `warptlm run` loads it: a module with no kernel left throws its first
    // refusal; otherwise the refused kernel earliest in the file is the error.
    GlobalMemory scratch;
    const Module m(text, in, scratch);
    const InputError* first = nullptr;
    for (const auto& r : m.refused())
      if (!first || r.second.where().line < first->where().line) first = &r.second;
    if (first) throw *first;
  }
  PassReport rep;
  const std::string ptx = optimize_scratchpad_sharing(text, in, t, &rep);
  if (out.empty()) {
    std::cout << ptx;
    std::cerr << rep.text();
    return 0;
  }
  std::ofstream o(out, std::ios::binary);
  if (!o || !(o << ptx) || !o.flush()) throw InputError(Place{out, 0, ""}, "cannot write the output PTX file");
  std::cout << rep.text();
  return 0;
}

}  // namespace warptlm
