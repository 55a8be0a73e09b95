// warptlm topology [--dot] [--platform gpu|spu] [--config NAME|FILE] [--overlay ...] [--set key=value ...]
// Elaborates the testbench of `warptlm run` (the platform the config
// describes, gpu or spu, and the host driver bound to its host socket), without running
// anything, and prints its module tree (each block with its class and sockets), every
// socket binding, and the clock domains; --dot prints the same as a Graphviz
// graph (clusters for the SMs and partitions, one edge per binding).
#include <cxxabi.h>

#include <boost/program_options.hpp>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <systemc>
#include <typeinfo>

#include "app.hpp"
#include "common/errors.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/testbench.hpp"
#include "spu/spu_platform.hpp"

namespace po = boost::program_options;

namespace warptlm {

namespace {

// "warptlm::L1DataCache" -> "L1DataCache".
std::string class_of(const sc_core::sc_object& o) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(typeid(o).name(), nullptr, nullptr, &status), std::free);
  std::string n = status == 0 && d ? d.get() : typeid(o).name();
  const size_t t = n.find('<');
  const size_t c = n.rfind("::", t == std::string::npos ? n.size() : t);
  return c == std::string::npos ? n : n.substr(c + 2);
}

bool is_socket(const sc_core::sc_object& o) {
  const std::string k = o.kind();
  return k.find("socket") != std::string::npos || k == "sc_port" || k == "sc_export";
}

std::string base_name(const std::string& n) {
  const size_t d = n.rfind('.');
  return d == std::string::npos ? n : n.substr(d + 1);
}

std::string owner_of(const std::string& socket) {
  const size_t d = socket.rfind('.');
  return d == std::string::npos ? socket : socket.substr(0, d);
}

// sc_vector elements are named "part_socket_0"; their owner is the vector's owner.
std::string module_of(const std::string& socket, const std::map<std::string, const sc_core::sc_module*>& modules) {
  std::string o = owner_of(socket);
  while (!o.empty() && !modules.count(o)) o = owner_of(o) == o ? "" : owner_of(o);
  return o;
}

void collect(const sc_core::sc_object& o, std::map<std::string, const sc_core::sc_module*>& modules) {
  if (auto* m = dynamic_cast<const sc_core::sc_module*>(&o)) modules[m->name()] = m;
  for (auto* c : o.get_child_objects()) collect(*c, modules);
}

void print_tree(const sc_core::sc_object& o, int depth, const std::map<std::string, std::string>& clock_of) {
  const auto* m = dynamic_cast<const sc_core::sc_module*>(&o);
  if (!m) return;
  std::string line(size_t(2 * depth), ' ');
  line += m->name();
  std::cout << line << std::string(line.size() < 28 ? 28 - line.size() : 1, ' ') << class_of(*m);
  auto c = clock_of.find(m->name());
  if (c != clock_of.end()) std::cout << "  [" << c->second << "]";
  // A socket's own port and export show up beside it ("mem_socket_export_0"): list the socket only.
  std::vector<std::string> names;
  auto add = [&](const sc_core::sc_object& s) {
    const std::string n = base_name(s.name());
    for (auto& k : names)
      if (n.compare(0, k.size() + 1, k + "_") == 0 && n.find_first_not_of("0123456789", n.rfind('_') + 1) == std::string::npos) return;
    names.push_back(n);
  };
  for (auto* s : m->get_child_objects())
    if (is_socket(*s)) add(*s);
    else if (std::string(s->kind()) == "sc_vector")
      for (auto* e : s->get_child_objects())
        if (is_socket(*e)) add(*e);
  std::string sockets;
  for (auto& n : names) sockets += (sockets.empty() ? "" : ", ") + n;
  if (!sockets.empty()) std::cout << "  sockets: " << sockets;
  std::cout << "\n";
  for (auto* ch : m->get_child_objects()) print_tree(*ch, depth + 1, clock_of);
}

std::string dot_id(const std::string& n) { return "\"" + n + "\""; }

void print_dot(const GpuPlatform& p, const sc_core::sc_module& host, const std::vector<GpuPlatform::Binding>& bindings,
               const std::map<std::string, std::string>& clock_of, const std::map<std::string, const sc_core::sc_module*>& modules) {
  static const char* colours[] = {"lightblue", "palegreen", "khaki", "lightsalmon", "plum", "lightgrey"};
  std::map<std::string, std::string> colour;
  for (size_t i = 0; i < p.clocks.size(); ++i) colour[p.clocks[i].name] = colours[i % 6];
  std::cout << "digraph warptlm {\n  rankdir=TB;\n  node [shape=box, style=filled, fontname=\"Helvetica\"];\n"
            << "  edge [fontname=\"Helvetica\", fontsize=9];\n  label=\"" << p.name() << "; clock domains:";
  for (auto& c : p.clocks) std::cout << " " << c.name << " " << c.mhz << " MHz (" << colour[c.name] << ")";
  std::cout << "\";\n";
  // one cluster per module that has modules inside it; leaves are nodes
  std::function<void(const sc_core::sc_module&, int)> emit = [&](const sc_core::sc_module& m, int depth) {
    std::vector<const sc_core::sc_module*> kids;
    for (auto* c : m.get_child_objects())
      if (auto* cm = dynamic_cast<const sc_core::sc_module*>(c)) kids.push_back(cm);
    const std::string pad(size_t(2 * depth + 2), ' ');
    auto cl = clock_of.find(m.name());
    const std::string fill = cl != clock_of.end() ? colour[cl->second.substr(0, cl->second.find(','))] : "white";
    if (kids.empty()) {
      std::cout << pad << dot_id(m.name()) << " [label=\"" << base_name(m.name()) << "\\n" << class_of(m) << "\", fillcolor=" << fill
                << "];\n";
      return;
    }
    std::cout << pad << "subgraph " << dot_id("cluster_" + std::string(m.name())) << " {\n" << pad << "  label=\""
              << base_name(m.name()) << " (" << class_of(m) << ")\";\n";
    bool own_sockets = false;
    for (auto* c : m.get_child_objects()) own_sockets |= is_socket(*c);
    if (own_sockets)  // the module itself, for its own sockets
      std::cout << pad << "  " << dot_id(m.name()) << " [label=\"" << base_name(m.name()) << "\\n" << class_of(m)
                << "\", fillcolor=" << fill << "];\n";
    for (auto* k : kids) emit(*k, depth + 1);
    std::cout << pad << "}\n";
  };
  emit(p, 0);
  std::cout << "  " << dot_id(host.name()) << " [label=\"" << host.name() << "\\n" << class_of(host) << "\", fillcolor=white];\n";
  for (auto& b : bindings)
    std::cout << "  " << dot_id(module_of(b.initiator, modules)) << " -> " << dot_id(module_of(b.target, modules))
              << " [label=\"" << base_name(b.initiator) << "\\n-> " << base_name(b.target) << "\"];\n";
  std::cout << "}\n";
}

}  // namespace

int topology_command(int argc, char* argv[]) {
  declare_all_params();
  std::string config = kDefaultGpu, platform = "gpu";
  std::vector<std::string> overlays, sets;
  bool dot = false;
  po::options_description desc("warptlm topology");
  desc.add_options()("help,h", "this help")("dot", po::bool_switch(&dot), "a Graphviz graph instead of text")
      ("platform", po::value<std::string>(&platform), "gpu (default) or spu (the Stencil Processing Unit's mesh)")
      ("config", po::value<std::string>(&config), "base config: NAME in scenarios/configs or a FILE (default gtx480)")
      ("overlay", po::value<std::vector<std::string>>(&overlays)->composing(), "overlay NAME or FILE (repeatable)")
      ("set", po::value<std::vector<std::string>>(&sets)->composing(), "key=value (repeatable)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc - 1, argv + 1).options(desc).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string(e.what()) + "\nusage: warptlm topology [--dot] [--platform gpu|spu] [--config NAME|FILE] [--overlay NAME|FILE ...] [--set key=value ...]");
  }
  if (vm.count("help")) { std::cout << desc << "\n"; return 0; }
  Config cfg;
  cfg.merge_file(resolve_scenario(config, "configs"));
  for (auto& o : overlays) cfg.merge_file(resolve_scenario(o, "overlays"));
  for (auto& s : sets) cfg.apply_set(s);
  if (platform != "gpu" && platform != "spu")
    throw InputError("unknown platform '" + platform + "': gpu (the default) or spu (the Stencil Processing Unit's mesh)");
  if (platform == "spu") SpuPlatform::configure(cfg);
  if (cfg.get_string("sim.mode") != "timing") throw InputError("topology needs sim.mode=timing: in functional mode the platform has no blocks");
  StatsRegistry stats;
  GpuTestbench tb(cfg, stats, platform);
  const GpuPlatform& p = tb.platform();
  std::vector<GpuPlatform::Binding> bindings{{tb.driver().socket.name(), p.host.name()}};
  bindings.insert(bindings.end(), p.bindings.begin(), p.bindings.end());
  std::map<std::string, std::string> clock_of;
  for (auto& c : p.clocks) {
    char mhz[32];
    std::snprintf(mhz, sizeof mhz, "%g MHz", c.mhz);
    for (auto& b : c.blocks) clock_of[b] = c.name + ", " + mhz;
  }
  std::map<std::string, const sc_core::sc_module*> modules;
  collect(p, modules);
  collect(tb.driver(), modules);
  if (dot) {
    print_dot(p, tb.driver(), bindings, clock_of, modules);
    return 0;
  }
  std::cout << "modules  (class  [clock domain]  sockets)\n";
  print_tree(tb.driver(), 0, clock_of);
  print_tree(p, 0, clock_of);
  std::cout << "\nbindings  (initiator socket -> target socket)\n";
  for (auto& b : bindings) std::cout << "  " << b.initiator << " -> " << b.target << "\n";
  std::cout << "\nclock domains\n";
  for (auto& c : p.clocks) std::cout << "  " << c.name << " " << c.mhz << " MHz: " << c.blocks.size() << " blocks\n";
  return 0;
}

}  // namespace warptlm
