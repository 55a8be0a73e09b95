// PTX text -> FuncIR. Covers what nvcc emits for -arch=compute_75: module
// directives, .entry/.func with .param lists, .reg/.shared/.local/.const/.global
// declarations (arrays, alignment, initialisers), labels, guards, vector and
// address operands, call sequences with scoped .param declarations.
#include "isa/ptx_parser.hpp"
#include "isa/ptx_lexer.hpp"

#include <cctype>
#include <cstring>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "common/errors.hpp"

namespace warptlm {
namespace {

using Tok = PtxToken;

const std::unordered_map<std::string, Op>& op_table() {
  static const std::unordered_map<std::string, Op> t = {
      {"add", Op::Add}, {"sub", Op::Sub}, {"mul", Op::Mul}, {"mad", Op::Mad}, {"mul24", Op::Mul24},
      {"addc", Op::Addc}, {"subc", Op::Subc}, {"madc", Op::Madc},
      {"mad24", Op::Mad24}, {"sad", Op::Sad}, {"div", Op::Div}, {"rem", Op::Rem}, {"abs", Op::Abs},
      {"neg", Op::Neg}, {"min", Op::Min}, {"max", Op::Max}, {"and", Op::And}, {"or", Op::Or},
      {"xor", Op::Xor}, {"not", Op::Not}, {"cnot", Op::Cnot}, {"shl", Op::Shl}, {"shr", Op::Shr},
      {"popc", Op::Popc}, {"clz", Op::Clz}, {"brev", Op::Brev}, {"bfe", Op::Bfe}, {"bfi", Op::Bfi},
      {"prmt", Op::Prmt}, {"bfind", Op::Bfind}, {"fns", Op::Fns}, {"shf", Op::ShfL}, {"fma", Op::Fma},
      {"sqrt", Op::Sqrt}, {"rsqrt", Op::Rsqrt}, {"rcp", Op::Rcp}, {"sin", Op::Sin}, {"cos", Op::Cos},
      {"lg2", Op::Lg2}, {"ex2", Op::Ex2}, {"tanh", Op::Tanh}, {"copysign", Op::Copysign},
      {"testp", Op::Testp}, {"setp", Op::Setp}, {"set", Op::Set}, {"selp", Op::Selp}, {"slct", Op::Slct},
      {"mov", Op::Mov}, {"cvt", Op::Cvt}, {"cvta", Op::Cvta}, {"ld", Op::Ld}, {"ldu", Op::Ldu},
      {"st", Op::St}, {"atom", Op::Atom}, {"red", Op::Red}, {"prefetch", Op::Prefetch}, {"prefetchu", Op::Prefetch},
      {"bra", Op::Bra}, {"brx", Op::Invalid}, {"call", Op::Call}, {"ret", Op::Ret}, {"exit", Op::Exit},
      {"bar", Op::Bar}, {"barrier", Op::Bar}, {"membar", Op::Membar}, {"fence", Op::Fence},
      {"nanosleep", Op::Nanosleep}, {"trap", Op::Trap}, {"shfl", Op::Shfl}, {"vote", Op::Vote},
      {"activemask", Op::Activemask}, {"redux", Op::Redux}, {"match", Op::Match}, {"relssp", Op::Relssp},
  };
  return t;
}

bool parse_cmp(const std::string& m, Cmp& c) {
  static const std::unordered_map<std::string, Cmp> t = {
      {"eq", Cmp::Eq}, {"ne", Cmp::Ne}, {"lt", Cmp::Lt}, {"le", Cmp::Le}, {"gt", Cmp::Gt}, {"ge", Cmp::Ge},
      {"lo", Cmp::Lo}, {"ls", Cmp::Ls}, {"hi", Cmp::Hi}, {"hs", Cmp::Hs}, {"equ", Cmp::Equ}, {"neu", Cmp::Neu},
      {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan}};
  auto it = t.find(m);
  if (it == t.end()) return false;
  c = it->second;
  return true;
}

bool parse_space(const std::string& m, Space& s) {
  if (m == "global") s = Space::Global;
  else if (m == "shared" || m == "shared::cta") s = Space::Shared;
  else if (m == "local") s = Space::Local;
  else if (m == "const") s = Space::Const;
  else if (m == "param") s = Space::Param;
  else if (m == "cbv") s = Space::Cbv;
  else if (m == "cbh") s = Space::Cbh;
  else return false;
  return true;
}

// Modifiers with no functional effect in this model (cache operators, memory
// ordering scopes, the .sync/.aligned forms).
bool ignorable_modifier(const std::string& m) {
  static const char* ign[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "relaxed", "acquire", "release",
                              "acq_rel", "sc", "weak", "gpu", "sys", "cta", "gl", "sync", "aligned", "noftz",
                              "mmio", nullptr};
  for (const char** p = ign; *p; ++p)
    if (m == *p) return true;
  return m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0;
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& origin, PtxDialect dialect)
      : origin_(origin), dialect_(dialect), toks_(lex_ptx(text, origin)) {}

  ParsedModule run() {
    ParsedModule m;
    m.origin = origin_;
    bool is_extern = false;
    while (peek().kind != Tok::End) {
      const Tok& t = peek();
      if (t.kind != Tok::Ident || t.s[0] != '.') fail(t.line, "", "unexpected '" + t.s + "' at module scope");
      const std::string d = t.s;
      if (d == ".version" || d == ".target" || d == ".address_size" || d == ".file" || d == ".loc") {
        skip_line();
      } else if (d == ".section") {
        skip_line_or_block();
      } else if (d == ".visible" || d == ".weak" || d == ".common") {
        next();
      } else if (d == ".extern") {
        next();
        is_extern = true;
        continue;
      } else if (d == ".entry" || d == ".func") {
        FuncIR f = parse_function();
        if (f.has_body || !is_extern) m.funcs.push_back(std::move(f));
      } else if (d == ".global" || d == ".const" || d == ".shared") {
        VarDecl v = parse_var(true, is_extern);
        m.vars.push_back(std::move(v));
      } else if (d == ".pragma") {
        skip_to_semicolon();
      } else {
        fail(t.line, d, "unsupported directive '" + d + "' at module scope");
      }
      is_extern = false;
    }
    return m;
  }

 private:
  std::string origin_;
  PtxDialect dialect_;
  std::vector<Tok> toks_;
  size_t pos_ = 0;
  FuncIR* fn_ = nullptr;
  std::unordered_map<std::string, std::pair<uint32_t, bool>> regs_;  // name -> (slot, is_pred)
  // Register scopes: the function body and each { } block inside it. A name
  // may be declared once per scope; an inner declaration hides an outer one
  // until its block closes.
  struct RegScope {
    std::unordered_set<std::string> declared;
    std::vector<std::pair<std::string, std::pair<uint32_t, bool>>> hidden;  // outer entries to restore
  };
  std::vector<RegScope> reg_scopes_;
  std::vector<std::unordered_map<std::string, std::pair<uint32_t, uint32_t>>> param_scopes_;  // name -> (frame off, size)
  std::unordered_map<std::string, ParamInfo> entry_params_;
  std::unordered_map<std::string, uint32_t> locals_;  // .local name -> offset
  std::unordered_map<std::string, uint32_t> labels_;
  std::unordered_map<std::string, uint32_t> label_lines_;  // where each label was defined
  std::vector<std::pair<size_t, uint32_t>> label_uses_;  // (instr index, line) of operands naming labels

  const Tok& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Tok& next() { const Tok& t = toks_[pos_]; if (pos_ + 1 < toks_.size()) ++pos_; return t; }
  // A mesh instruction, space or register (seed 003 sec. 2.9) in a dialect without them.
  void require_mesh(uint32_t line, const std::string& what) const {
    if (!dialect_.mesh)
      fail(line, what, "'" + what + "' belongs to the SPU mesh's PTX (communication buffers, block synchronisation, "
                       "unit registers): it runs only on a mesh platform (warptlm run --platform spu)");
  }

  [[noreturn]] void fail(uint32_t line, const std::string& key, const std::string& msg) const {
    throw InputError(Place{origin_, int(line), key}, msg);
  }
  void expect(const char* p) {
    const Tok& t = peek();
    if (!t.is(p)) fail(t.line, "", std::string("expected '") + p + "' but found '" + (t.kind == Tok::End ? "end of file" : t.s) + "'");
    next();
  }
  bool accept(const char* p) { if (peek().is(p)) { next(); return true; } return false; }
  void skip_line() { uint32_t l = peek().line; while (peek().kind != Tok::End && peek().line == l) next(); }
  void skip_to_semicolon() { while (peek().kind != Tok::End && !peek().is(";")) next(); expect(";"); }
  void skip_line_or_block() {
    uint32_t l = peek().line;
    while (peek().kind != Tok::End && peek().line == l && !peek().is("{")) next();
    if (peek().is("{")) { int depth = 0; do { if (peek().is("{")) ++depth; if (peek().is("}")) --depth; next(); } while (depth > 0 && peek().kind != Tok::End); }
  }
  std::string ident(const char* what) {
    const Tok& t = peek();
    if (t.kind != Tok::Ident) fail(t.line, "", std::string("expected ") + what + " but found '" + t.s + "'");
    return next().s;
  }
  uint64_t number(const char* what) {
    const Tok& t = peek();
    bool neg = false;
    if (t.is("-")) { neg = true; next(); }
    const Tok& n = peek();
    if (n.kind != Tok::Num) fail(n.line, "", std::string("expected ") + what + " but found '" + n.s + "'");
    uint64_t v = parse_int(n.s, n.line);
    next();
    return neg ? uint64_t(0) - v : v;  // two's complement, also for -9223372036854775808
  }
  uint64_t parse_int(const std::string& s, uint32_t line) const {
    std::string body = s;
    if (!body.empty() && (body.back() == 'U' || body.back() == 'u')) body.pop_back();
    try {
      size_t used = 0;
      uint64_t v;
      if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) v = std::stoull(body.substr(2), &used, 16), used += 2;
      else if (body.size() > 1 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B')) v = std::stoull(body.substr(2), &used, 2), used += 2;
      else if (body.size() > 1 && body[0] == '0') v = std::stoull(body, &used, 8);
      else v = std::stoull(body, &used, 10);
      if (used != body.size()) throw std::invalid_argument("x");
      return v;
    } catch (const std::exception&) {
      fail(line, "", "malformed integer '" + s + "'");
    }
  }

  // The bits of a 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX literal: exactly `digits` hex digits.
  uint64_t hex_bits(const std::string& s, size_t digits, uint32_t line) const {
    const std::string h = s.substr(2);
    if (h.size() != digits || h.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      fail(line, "", "malformed floating-point literal '" + s + "': " + std::to_string(digits) + " hex digits expected");
    return std::stoull(h, nullptr, 16);
  }

  // A power-of-two alignment the layouts can use.
  uint32_t alignment(uint32_t line) {
    const uint64_t a = number("alignment");
    if (a == 0 || (a & (a - 1)) || a > kMaxAlign)
      fail(line, ".align", "alignment " + std::to_string(a) + " is not a power of two from 1 to " + std::to_string(kMaxAlign));
    return uint32_t(a);
  }

  // An array's element count, the product of its dimensions, within the budget of one declaration.
  uint32_t array_count(uint64_t count, uint64_t elem_size, const std::string& name, uint32_t line) {
    const uint64_t n = number("array size");
    if (n == 0 || count > kMaxDeclBytes / n || count * n * std::max<uint64_t>(elem_size, 1) > kMaxDeclBytes)
      fail(line, name, "array '" + name + "' is " + (n == 0 ? std::string("empty") : "larger than the limit of " +
                            std::to_string(kMaxDeclBytes) + " bytes for one declaration"));
    return uint32_t(count * n);
  }

  // Literal bits for an immediate of type t.
  uint64_t literal_bits(const std::string& s, bool neg, DType t, uint32_t line) const {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
      uint64_t v = hex_bits(s, 8, line);
      if (t == DType::F64) { float f; uint32_t b = uint32_t(v); std::memcpy(&f, &b, 4); double d = neg ? -double(f) : double(f); std::memcpy(&v, &d, 8); return v; }
      return neg ? (v ^ 0x80000000u) : v;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
      uint64_t v = hex_bits(s, 16, line);
      if (t == DType::F32) { double d; std::memcpy(&d, &v, 8); float f = float(neg ? -d : d); uint32_t b; std::memcpy(&b, &f, 4); return b; }
      return neg ? (v ^ 0x8000000000000000ull) : v;
    }
    bool is_hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    bool decimal_float = !is_hex && (s.find('.') != std::string::npos || s.find('e') != std::string::npos || s.find('E') != std::string::npos);
    if (decimal_float || (dtype_float(t) && !is_hex)) {
      double d;
      try { d = std::stod(s); } catch (const std::exception&) { fail(line, "", "malformed number '" + s + "'"); }
      if (neg) d = -d;
      if (t == DType::F64) { uint64_t v; std::memcpy(&v, &d, 8); return v; }
      float f = float(d); uint32_t b; std::memcpy(&b, &f, 4); return b;
    }
    uint64_t v = parse_int(s, line);
    return neg ? uint64_t(0) - v : v;
  }

  // [.align N] [.vN] .type name [ [N] ... ] [= init] ;
  VarDecl parse_var(bool module_scope, bool is_extern) {
    VarDecl v;
    v.line = peek().line;
    std::string sp = next().s.substr(1);
    if (!parse_space(sp, v.space)) fail(v.line, sp, "unsupported state space ." + sp);
    uint32_t vecn = 1;
    while (peek().kind == Tok::Ident && peek().s[0] == '.') {
      std::string m = next().s.substr(1);
      if (m == "align") v.align = alignment(v.line);
      else if (m == "v2") vecn = 2;
      else if (m == "v4") vecn = 4;
      else if (m == "ptr" || m == "to" || m == "global" || m == "shared" || m == "const" || m == "local") {
      } else if (!parse_dtype(m, v.type)) fail(v.line, m, "unsupported modifier ." + m + " in declaration");
    }
    v.name = ident("variable name");
    v.elem_size = dtype_bytes(v.type) * vecn;
    if (v.elem_size == 0) v.elem_size = 1;
    if (v.align < v.elem_size && v.align == 1) v.align = v.elem_size;
    v.count = 1;
    while (accept("[")) {
      if (accept("]")) { v.dynamic = true; v.count = 0; continue; }
      v.count = array_count(v.count, v.elem_size, v.name, v.line);
      expect("]");
    }
    if (is_extern && v.space == Space::Shared) v.dynamic = true;
    if (accept("=")) {
      if (!module_scope && v.space != Space::Const) fail(v.line, v.name, "initialiser on a non-constant variable");
      std::vector<uint64_t> vals;
      std::vector<bool> negs;
      parse_init(vals, v);
      v.init.assign(size_t(v.elem_size) * std::max<uint32_t>(v.count, 1), 0);
      size_t esz = dtype_bytes(v.type) ? dtype_bytes(v.type) : 1;
      if (vals.size() * esz > v.init.size()) fail(v.line, v.name, "too many initialisers for '" + v.name + "'");
      // a value is at most 64 bits wide: wider elements (.b128) take it zero-extended
      for (size_t i = 0; i < vals.size(); ++i) std::memcpy(&v.init[i * esz], &vals[i], std::min<size_t>(esz, sizeof(uint64_t)));
    }
    expect(";");
    return v;
  }

  void parse_init(std::vector<uint64_t>& vals, const VarDecl& v) {
    if (accept("{")) {
      if (!peek().is("}")) {
        do { parse_init(vals, v); } while (accept(","));
      }
      expect("}");
      return;
    }
    bool neg = accept("-");
    const Tok& t = peek();
    if (t.kind != Tok::Num) fail(t.line, v.name, "unsupported initialiser '" + t.s + "' (only numeric values)");
    vals.push_back(literal_bits(t.s, neg, v.type, t.line));
    next();
  }

  ParamInfo parse_param_decl() {
    ParamInfo p;
    uint32_t line = peek().line;
    std::string d = ident(".param");
    if (d != ".param" && d != ".reg") fail(line, d, "expected .param in parameter list, found '" + d + "'");
    uint32_t vecn = 1;
    p.align = 0;
    while (peek().kind == Tok::Ident && peek().s[0] == '.') {
      std::string m = next().s.substr(1);
      if (m == "align") p.align = alignment(line);
      else if (m == "v2") vecn = 2;
      else if (m == "v4") vecn = 4;
      else if (m == "ptr" || m == "global" || m == "shared" || m == "const" || m == "local") {
      } else if (!parse_dtype(m, p.type)) fail(line, m, "unsupported modifier ." + m + " in parameter");
    }
    p.name = ident("parameter name");
    uint32_t esz = dtype_bytes(p.type) * vecn;
    uint32_t count = 1;
    while (accept("[")) { count = array_count(count, esz, p.name, line); expect("]"); }
    p.size = esz * count;
    if (p.size > kMaxParamBytes)
      fail(line, p.name, "parameter '" + p.name + "' is " + std::to_string(p.size) + " bytes; parameters are limited to " +
                             std::to_string(kMaxParamBytes) + " bytes");
    if (p.align == 0) p.align = esz ? esz : 1;
    return p;
  }

  static uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

  FuncIR parse_function() {
    FuncIR f;
    f.line = peek().line;
    f.is_entry = next().s == ".entry";
    fn_ = &f;
    regs_.clear(); reg_scopes_.assign(1, {}); param_scopes_.assign(1, {}); entry_params_.clear(); locals_.clear(); labels_.clear(); label_lines_.clear(); label_uses_.clear();
    if (!f.is_entry && peek().is("(")) {  // return parameters
      next();
      if (!peek().is(")")) {
        do {
          ParamInfo p = parse_param_decl();
          f.frame_bytes = align_up(f.frame_bytes, p.align);
          p.offset = f.frame_bytes;
          f.frame_bytes += p.size;
          param_scopes_[0][p.name] = {p.offset, p.size};
          f.results.push_back(p);
        } while (accept(","));
      }
      expect(")");
    }
    f.name = ident("function name");
    if (accept("(")) {
      if (!peek().is(")")) {
        uint32_t off = 0;
        do {
          ParamInfo p = parse_param_decl();
          if (f.is_entry) {
            off = align_up(off, p.align);
            p.offset = off;
            off += p.size;
            entry_params_[p.name] = p;
          } else {
            f.frame_bytes = align_up(f.frame_bytes, p.align);
            p.offset = f.frame_bytes;
            f.frame_bytes += p.size;
            param_scopes_[0][p.name] = {p.offset, p.size};
          }
          f.params.push_back(p);
        } while (accept(","));
      }
      expect(")");
    }
    // performance directives
    while (peek().kind == Tok::Ident && peek().s[0] == '.') {
      std::string d = next().s;
      if (d == ".maxntid" || d == ".reqntid") {
        uint32_t prod = 1;
        uint64_t p64 = 1;
        do {
          const uint64_t n = number("thread count");
          p64 *= n;
          if (n == 0 || p64 > 1024) fail(f.line, d, d + " asks for " + std::to_string(p64) + " threads; a block has 1 to 1024");
        } while (accept(","));
        prod = uint32_t(p64);
        (d == ".maxntid" ? f.maxntid : f.reqntid) = prod;
      } else if (d == ".minnctapersm" || d == ".maxnreg" || d == ".maxnctapersm") {
        number("value");
      } else if (d == ".noreturn") {
      } else if (d == ".pragma") {
        skip_to_semicolon();
      } else {
        fail(peek().line, d, "unsupported function directive '" + d + "'");
      }
    }
    if (accept(";")) { fn_ = nullptr; return f; }  // prototype only
    expect("{");
    f.has_body = true;
    parse_body(f);
    for (auto& use : label_uses_) {
      Instr& in = f.body[use.first];
      for (unsigned k = 0; k < in.nops; ++k) {
        Operand& o = in.ops[k];
        if (o.kind != OpKind::Label) continue;
        auto it = labels_.find(o.name);
        if (it == labels_.end()) fail(in.line, op_name(in.op), "branch to undefined label '" + o.name + "'");
        o.imm = it->second;
      }
    }
    fn_ = nullptr;
    return f;
  }

  uint32_t new_reg(const std::string& name, bool pred, DType t, uint32_t line) {
    auto& f = *fn_;
    SReg sr;
    if (parse_sreg(name, sr) || is_reserved_sreg(name))
      fail(line, name, "register '" + name + "' is declared with the name of a special register (read-only, predefined)");
    RegScope& scope = reg_scopes_.back();
    if (!scope.declared.insert(name).second) fail(line, name, "register '" + name + "' declared twice in one scope of '" + f.name + "'");
    auto outer = regs_.find(name);
    if (outer != regs_.end()) scope.hidden.push_back(*outer);
    if ((pred ? f.npreds : f.nregs) >= kMaxRegs)
      fail(line, name, std::string("more than ") + std::to_string(kMaxRegs) + (pred ? " predicates" : " registers") +
                           " declared in '" + f.name + "'");
    uint32_t slot = pred ? f.npreds++ : f.nregs++;
    regs_[name] = {slot, pred};
    if (!pred) {
      f.regs32 += dtype_bytes(t) > 4 ? 2 : 1;
      f.reg_words.push_back(dtype_bytes(t) > 4 ? 2 : 1);
    }
    return slot;
  }

  // The predicate slot that holds the function's carry flag, made at its first carry instruction.
  uint32_t carry_flag_slot(uint32_t line) {
    FuncIR& f = *fn_;
    if (f.carry_pred < 0) {
      if (f.npreds >= kMaxRegs) fail(line, "cc", "no predicate slot left for the carry flag of '" + f.name + "'");
      f.carry_pred = int32_t(f.npreds++);
    }
    return uint32_t(f.carry_pred);
  }

  void close_reg_scope() {
    RegScope& scope = reg_scopes_.back();
    for (const std::string& n : scope.declared) regs_.erase(n);
    for (auto& h : scope.hidden) regs_[h.first] = h.second;
    reg_scopes_.pop_back();
  }

  void parse_body(FuncIR& f) {
    int depth = 0;
    while (true) {
      const Tok& t = peek();
      if (t.kind == Tok::End) fail(t.line, "", "unexpected end of file inside function '" + f.name + "'");
      if (t.is("}")) {
        next();
        if (depth == 0) return;
        --depth;
        param_scopes_.pop_back();
        close_reg_scope();
        continue;
      }
      if (t.is("{")) { next(); ++depth; param_scopes_.emplace_back(); reg_scopes_.emplace_back(); continue; }
      if (t.kind == Tok::Ident && peek(1).is(":") && t.s[0] != '.') {
        auto first = label_lines_.emplace(t.s, t.line);
        if (!first.second)
          fail(t.line, t.s, "label '" + t.s + "' defined twice in '" + f.name + "' (first at line " + std::to_string(first.first->second) + ")");
        labels_[t.s] = uint32_t(f.body.size());
        next(); next();
        continue;
      }
      if (t.kind == Tok::Ident && t.s[0] == '.') {
        parse_body_directive(f);
        continue;
      }
      parse_instruction_or_refuse(f);
    }
  }

  // An instruction the front end cannot take refuses its function, and through it only the kernels that
  // reach it (module.cpp), not the whole file: the first such error is kept, the statement is skipped.
  void parse_instruction_or_refuse(FuncIR& f) {
    const size_t start = pos_, uses = label_uses_.size(), calls = f.calls.size(), body = f.body.size();
    try {
      parse_instruction(f);
    } catch (const InputError& e) {
      if (!f.refusal) f.refusal = std::make_shared<const InputError>(e);
      f.body.resize(body);
      f.calls.resize(calls);
      label_uses_.resize(uses);
      pos_ = start;
      while (peek().kind != Tok::End && !peek().is(";") && !peek().is("{") && !peek().is("}")) next();
      accept(";");
    }
  }

  void parse_body_directive(FuncIR& f) {
    const Tok& t = peek();
    std::string d = t.s;
    uint32_t line = t.line;
    if (d == ".loc" || d == ".file") { skip_line(); return; }
    if (d == ".pragma") { next(); skip_to_semicolon(); return; }
    if (d == ".reg") {
      next();
      DType ty = DType::B32;
      uint32_t vecn = 1;
      while (peek().kind == Tok::Ident && peek().s[0] == '.') {
        std::string m = next().s.substr(1);
        if (m == "v2") vecn = 2; else if (m == "v4") vecn = 4;
        else if (!parse_dtype(m, ty)) fail(line, m, "unsupported register type ." + m);
      }
      if (vecn != 1) fail(line, ".reg", "vector registers are not supported");
      do {
        std::string name = ident("register name");
        if (accept("<")) {
          uint64_t cnt = number("register count");
          expect(">");
          if (cnt > kMaxRegs)
            fail(line, name, "register count " + std::to_string(cnt) + " is over the limit of " + std::to_string(kMaxRegs) + " per function");
          for (uint64_t i = 0; i < cnt; ++i) new_reg(name + std::to_string(i), ty == DType::Pred, ty, line);
        } else {
          new_reg(name, ty == DType::Pred, ty, line);
        }
      } while (accept(","));
      expect(";");
      return;
    }
    if (d == ".local") {
      VarDecl v = parse_var(false, false);
      f.local_bytes = align_up(f.local_bytes, v.align);
      if (uint64_t(f.local_bytes) + v.bytes() > kMaxDeclBytes)
        fail(line, v.name, "the .local variables of '" + f.name + "' exceed " + std::to_string(kMaxDeclBytes) + " bytes per thread");
      locals_[v.name] = f.local_bytes;
      f.local_bytes += v.bytes();
      return;
    }
    if (d == ".shared") {
      f.shared.push_back(parse_var(false, false));
      return;
    }
    if (d == ".extern") {
      next();
      if (peek().s != ".shared") fail(line, peek().s, "only .extern .shared is supported inside a function");
      f.shared.push_back(parse_var(false, true));
      return;
    }
    if (d == ".param") {
      ParamInfo p = parse_param_decl();
      expect(";");
      f.frame_bytes = align_up(f.frame_bytes, p.align);
      param_scopes_.back()[p.name] = {f.frame_bytes, p.size};
      f.frame_bytes += p.size;
      return;
    }
    fail(line, d, "unsupported directive '" + d + "' inside function '" + f.name + "'");
  }

  const std::pair<uint32_t, uint32_t>* find_param(const std::string& name) const {
    for (auto it = param_scopes_.rbegin(); it != param_scopes_.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return &f->second;
    }
    return nullptr;
  }

  uint32_t sreg_slot(SReg s) {
    for (auto& p : fn_->sregs)
      if (p.second == s) return p.first;
    uint32_t slot = fn_->nregs++;
    fn_->reg_words.push_back(1);
    fn_->sregs.push_back({slot, s});
    return slot;
  }

  // A register or special register name as a source/destination.
  Operand reg_operand(const Tok& t, uint32_t line) {
    Operand o;
    auto it = regs_.find(t.s);
    if (it != regs_.end()) {
      o.kind = it->second.second ? OpKind::Pred : OpKind::Reg;
      o.reg = it->second.first;
      return o;
    }
    SReg s;
    if (parse_sreg(t.s, s)) {
      if (is_mesh_sreg(s)) require_mesh(line, t.s);
      if (s == SReg::Clock || s == SReg::Clock64 || s == SReg::GlobalTimer) {
        o.kind = OpKind::Clock;
        o.imm = uint64_t(s);
        return o;
      }
      o.kind = OpKind::Reg;
      o.reg = sreg_slot(s);
      o.special[0] = uint8_t(1 + unsigned(s));
      return o;
    }
    if (is_reserved_sreg(t.s))
      fail(line, t.s, "special register '" + t.s + "' is not modelled by WarpTLM");
    if (t.s == "_")
      fail(line, t.s, "the sink '_' is accepted only as an element of a destination vector, e.g. {%r1, _}");
    fail(line, t.s, "undeclared register '" + t.s + "'");
  }

  // A name used as an operand: a parameter or local (resolved now), or a
  // shared/global/const symbol, label or function (resolved at link).
  Operand name_operand(const std::string& name, Space& space_hint) {
    Operand o;
    if (auto p = find_param(name)) {
      o.kind = OpKind::Imm; o.imm = p->first; space_hint = Space::ParamFunc;
      return o;
    }
    auto ep = entry_params_.find(name);
    if (ep != entry_params_.end()) {
      o.kind = OpKind::Imm; o.imm = ep->second.offset; space_hint = Space::Param;
      return o;
    }
    auto lc = locals_.find(name);
    if (lc != locals_.end()) {
      o.kind = OpKind::Imm; o.imm = lc->second; space_hint = Space::Local;
      o.name = "\x01local";  // marks a local offset: linked with the function's local base
      return o;
    }
    o.kind = OpKind::Label;  // label, function or symbol: decided at link
    o.name = name;
    return o;
  }

  Operand parse_address(uint32_t line, Space& space_hint) {
    Operand o;
    o.kind = OpKind::Addr;
    const Tok& t = peek();
    if (t.kind == Tok::Ident && t.s[0] == '%') {
      Operand r = reg_operand(next(), line);
      if (r.kind != OpKind::Reg) fail(line, t.s, "address base '" + t.s + "' is not a data register");
      o.addr_has_reg = true;
      o.reg = r.reg;
      o.addr_32 = r.reg < fn_->reg_words.size() && fn_->reg_words[r.reg] == 1;
    } else if (t.kind == Tok::Ident) {
      Operand n = name_operand(next().s, space_hint);
      if (n.kind == OpKind::Imm) { o.imm = n.imm; o.name = n.name; }
      else o.name = n.name;
    } else if (t.kind == Tok::Num) {
      o.imm = number("address");
    } else {
      fail(line, "", "malformed address operand near '" + t.s + "'");
    }
    while (peek().is("+") || peek().is("-")) {
      bool minus = next().s == "-";
      uint64_t v = number("address offset");
      o.imm += minus ? uint64_t(-int64_t(v)) : v;
    }
    expect("]");
    return o;
  }

  void parse_instruction(FuncIR& f) {
    Instr in;
    const size_t start = pos_;
    const Tok& first = peek();
    in.line = first.line;
    if (accept("@")) {
      bool neg = accept("!");
      const Tok& p = next();
      Operand g = reg_operand(p, in.line);
      if (g.kind != OpKind::Pred) fail(in.line, p.s, "guard '" + p.s + "' is not a predicate");
      in.guard = int32_t(g.reg);
      in.guard_neg = neg;
    }
    const Tok& opt = peek();
    if (opt.kind != Tok::Ident) fail(opt.line, opt.s, "expected an instruction but found '" + opt.s + "'");
    std::string optext = next().s;
    std::vector<std::string> parts;
    {
      std::string cur;
      for (size_t i = 0; i < optext.size(); ++i) {
        if (optext[i] == '.' && !(i + 1 < optext.size() && optext[i + 1] == ':')) { parts.push_back(cur); cur.clear(); }
        else cur += optext[i];
      }
      parts.push_back(cur);
    }
    auto oit = op_table().find(parts[0]);
    if (oit == op_table().end() || oit->second == Op::Invalid)
      fail(in.line, parts[0], "unsupported instruction '" + optext + "'");
    in.op = oit->second;
    decode_modifiers(in, parts, optext);

    std::ostringstream text;
    text << optext;
    // operands
    Space space_hint = in.space;
    bool saw_param_sym = false;
    std::vector<std::pair<uint32_t, uint32_t>> call_lists[2];
    std::string callee;
    while (!peek().is(";")) {
      if (peek().kind == Tok::End) fail(in.line, optext, "missing ';' after instruction");
      if (in.nops >= 6) fail(in.line, optext, "too many operands");
      Operand o;
      const Tok& t = peek();
      if (in.op == Op::Call && t.is("(")) {
        next();
        auto& lst = call_lists[callee.empty() ? 0 : 1];
        if (!peek().is(")")) {
          do {
            std::string pn = ident("call parameter");
            auto p = find_param(pn);
            if (!p) fail(in.line, pn, "call parameter '" + pn + "' is not a declared .param");
            lst.push_back(*p);
          } while (accept(","));
        }
        expect(")");
        if (!accept(",")) break;
        continue;
      }
      if (t.is("!")) {
        next();
        o = reg_operand(next(), in.line);
        if (o.kind != OpKind::Pred) fail(in.line, optext, "'!' applied to a non-predicate");
        o.negate = true;
      } else if (t.is("-") || t.kind == Tok::Num) {
        bool neg = accept("-");
        const Tok& n = next();
        if (n.kind != Tok::Num) fail(in.line, optext, "expected a number after '-'");
        o.kind = OpKind::Imm;
        DType lt = in.type;
        if (in.op == Op::Cvt) lt = in.type2;
        if (in.op == Op::Setp || in.op == Op::Set) lt = in.op == Op::Set ? in.type2 : in.type;
        if ((in.op == Op::Shl || in.op == Op::Shr || in.op == Op::Bfe || in.op == Op::Bfi) && in.nops >= 2) lt = DType::U32;
        o.imm = literal_bits(n.s, neg, lt, in.line);
      } else if (t.is("[")) {
        next();
        o = parse_address(in.line, space_hint);
        if (space_hint == Space::ParamFunc) saw_param_sym = true;
      } else if (t.is("{")) {
        next();
        o.kind = OpKind::Vec;
        do {
          if (o.nvec >= 4) fail(in.line, optext, "vector operand with more than 4 elements");
          const Tok& r = next();
          if (r.kind == Tok::Ident && r.s == "_") { o.vec[o.nvec++] = UINT32_MAX; continue; }
          Operand ro = reg_operand(r, in.line);
          if (ro.kind != OpKind::Reg) fail(in.line, r.s, "vector element '" + r.s + "' is not a data register");
          o.special[o.nvec] = ro.special[0];
          o.vec[o.nvec++] = ro.reg;
        } while (accept(","));
        expect("}");
      } else if (t.kind == Tok::Ident && t.s[0] == '%') {
        o = reg_operand(next(), in.line);
      } else if (t.kind == Tok::Ident) {
        if (t.s == "_") refuse_sink(in.line, start);
        std::string nm = next().s;
        Space hint = in.space;
        o = name_operand(nm, hint);
        if (in.op == Op::Call && o.kind == OpKind::Label) { o.kind = OpKind::Func; callee = nm; }
        if (o.kind == OpKind::Label && (in.op == Op::Bra)) label_uses_.push_back({f.body.size(), in.line});
      } else {
        fail(in.line, optext, "unexpected '" + t.s + "' in operands");
      }
      in.ops[in.nops++] = o;
      if (accept("|")) {  // second destination: shfl/setp "d|p"
        if (in.nops >= 6) fail(in.line, optext, "too many operands");
        if (peek().s == "_") refuse_sink(in.line, start);
        in.ops[in.nops++] = reg_operand(next(), in.line);
        in.flags |= F_PAIR;
      }
      if (!accept(",")) break;
    }
    expect(";");
    if (uses_carry(in)) {  // the carry flag: the function's hidden predicate, last (ir.hpp)
      if (in.nops >= 6) fail(in.line, optext, "too many operands");
      Operand cf;
      cf.kind = OpKind::Pred;
      cf.reg = carry_flag_slot(in.line);
      in.ops[in.nops++] = cf;
    }
    if (in.op == Op::Ld || in.op == Op::St || in.op == Op::Ldu) {
      if (in.space == Space::Param && saw_param_sym) in.space = Space::ParamFunc;
      else if (in.space == Space::Param && space_hint == Space::ParamFunc) in.space = Space::ParamFunc;
    }
    in.text = source_text(start, pos_);
    if (in.op == Op::Call) {
      if (callee.empty()) fail(in.line, "call", "call without a target function");
      PendingCall pc;
      pc.pc = uint32_t(f.body.size());
      pc.callee = callee;
      // "call (results), f, (args)": a list before the name holds results, after it arguments
      pc.results = call_lists[0];
      pc.args = call_lists[1];
      f.calls.push_back(pc);
    }
    f.body.push_back(std::move(in));
  }

  // PTX's sink '_' where WarpTLM takes it only as an element of a destination vector ({%r1, _}).
  [[noreturn]] void refuse_sink(uint32_t line, size_t start) const {
    size_t end = start;
    while (end < toks_.size() && toks_[end].kind != Tok::End && !toks_[end].is(";")) ++end;
    fail(line, "_", "'" + source_text(start, end + 1) +
                        "': the sink '_' is accepted only as an element of a destination vector, e.g. {%r1, _}");
  }

  // The instruction as written, rebuilt from its tokens, for reports.
  std::string source_text(size_t from, size_t to) const {
    std::string s;
    for (size_t i = from; i < to && i < toks_.size(); ++i) {
      const Tok& t = toks_[i];
      bool tight = t.is(",") || t.is(";") || t.is("]") || t.is("}") || t.is(")") || t.is("|") ||
                   (i > from && (toks_[i - 1].is("[") || toks_[i - 1].is("{") || toks_[i - 1].is("(") ||
                                 toks_[i - 1].is("@") || toks_[i - 1].is("!") || toks_[i - 1].is("|") ||
                                 toks_[i - 1].is("+") || t.is("+")));
      if (!s.empty() && !tight) s += ' ';
      s += t.s;
    }
    return s;
  }

  void decode_modifiers(Instr& in, const std::vector<std::string>& parts, const std::string& optext) {
    std::vector<DType> types;
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string& m = parts[i];
      DType dt;
      Space sp;
      Cmp c;
      if (parse_dtype(m, dt)) { types.push_back(dt); continue; }
      bool is_cmp_op = in.op == Op::Setp || in.op == Op::Set;
      bool is_atom = in.op == Op::Atom || in.op == Op::Red || in.op == Op::Redux;
      if (is_cmp_op && in.cmp == Cmp::None && parse_cmp(m, c)) { in.cmp = c; continue; }
      if (is_cmp_op && (m == "and" || m == "or" || m == "xor")) {
        in.sub = m == "and" ? SubOp::And : m == "or" ? SubOp::Or : SubOp::Xor;
        continue;
      }
      if (is_atom) {
        static const std::unordered_map<std::string, SubOp> at = {
            {"add", SubOp::Add}, {"min", SubOp::Min}, {"max", SubOp::Max}, {"inc", SubOp::Inc}, {"dec", SubOp::Dec},
            {"exch", SubOp::Exch}, {"cas", SubOp::Cas}, {"and", SubOp::And}, {"or", SubOp::Or}, {"xor", SubOp::Xor}};
        auto it = at.find(m);
        if (it != at.end()) { in.sub = it->second; continue; }
      }
      if (in.op == Op::Shfl) {
        if (m == "up") { in.sub = SubOp::Up; continue; }
        if (m == "down") { in.sub = SubOp::Down; continue; }
        if (m == "bfly") { in.sub = SubOp::Bfly; continue; }
        if (m == "idx") { in.sub = SubOp::Idx; continue; }
      }
      if (in.op == Op::Vote) {
        if (m == "all") { in.sub = SubOp::All; continue; }
        if (m == "any") { in.sub = SubOp::Any; continue; }
        if (m == "uni") { in.sub = SubOp::Uni; continue; }
        if (m == "ballot") { in.sub = SubOp::Ballot; continue; }
      }
      if (in.op == Op::Match) {
        if (m == "any") { in.sub = SubOp::Any; continue; }
        if (m == "all") { in.sub = SubOp::All; continue; }
      }
      if (in.op == Op::Testp) {
        static const std::unordered_map<std::string, SubOp> tp = {
            {"finite", SubOp::Finite}, {"infinite", SubOp::Infinite}, {"number", SubOp::Number},
            {"notanumber", SubOp::NotANumber}, {"normal", SubOp::Normal}, {"subnormal", SubOp::Subnormal}};
        auto it = tp.find(m);
        if (it != tp.end()) { in.sub = it->second; continue; }
      }
      if (in.op == Op::ShfL && (m == "l" || m == "r")) { if (m == "r") in.op = Op::ShfR; continue; }
      if (in.op == Op::ShfL || in.op == Op::ShfR) {
        if (m == "wrap") continue;
        if (m == "clamp") { in.flags |= F_CLAMP; continue; }
      }
      if (in.op == Op::Bar && (m == "blocksync" || m == "unleashvius")) {
        require_mesh(in.line, optext);
        in.op = m == "blocksync" ? Op::BlockSync : Op::UnleashVius;
        continue;
      }
      if (in.op == Op::Bar) {
        if (m == "sync") continue;
        if (m == "arrive") { in.op = Op::BarArrive; continue; }
        if (m == "red") { in.op = Op::BarRed; continue; }
      }
      if (in.op == Op::BarRed) {
        if (m == "popc") { in.sub = SubOp::Add; continue; }
        if (m == "and") { in.sub = SubOp::And; continue; }
        if (m == "or") { in.sub = SubOp::Or; continue; }
      }
      if ((in.op == Op::Ld || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red || in.op == Op::Cvta ||
           in.op == Op::Ldu || in.op == Op::Prefetch) && parse_space(m, sp)) {
        if (is_mesh_space(sp)) {
          require_mesh(in.line, optext);
          if (in.op != Op::Ld && in.op != Op::St)
            fail(in.line, optext, "'" + optext + "': a communication buffer is reached by ld and st only");
        }
        in.space = sp;
        continue;
      }
      if (m == "cc" && (in.op == Op::Add || in.op == Op::Sub || in.op == Op::Mad || reads_carry(in))) {
        in.flags |= F_CC;
        continue;
      }
      if (m == "rn") { in.rnd = Rnd::Rn; continue; }
      if (m == "rz") { in.rnd = Rnd::Rz; continue; }
      if (m == "rm") { in.rnd = Rnd::Rm; continue; }
      if (m == "rp") { in.rnd = Rnd::Rp; continue; }
      if (m == "rni") { in.rnd = Rnd::Rni; continue; }
      if (m == "rzi") { in.rnd = Rnd::Rzi; continue; }
      if (m == "rmi") { in.rnd = Rnd::Rmi; continue; }
      if (m == "rpi") { in.rnd = Rnd::Rpi; continue; }
      if (m == "ftz") { in.flags |= F_FTZ; continue; }
      if (m == "sat") { in.flags |= F_SAT; continue; }
      if (m == "approx") { in.flags |= F_APPROX; continue; }
      if (m == "full") { in.flags |= F_FULL; continue; }
      if (m == "lo") { in.flags |= F_LO; continue; }
      if (m == "hi") { in.flags |= F_HI; continue; }
      if (m == "wide") { in.flags |= F_WIDE; continue; }
      if (m == "uni") { in.flags |= F_UNI; continue; }
      if (m == "to") { in.flags |= F_TO; continue; }
      if (m == "shiftamt") { in.flags |= F_SHIFTAMT; continue; }
      if (m == "volatile") { in.flags |= F_VOLATILE; continue; }
      if (m == "nc") { in.flags |= F_NC; continue; }
      if (m == "v2") { in.vec = 2; continue; }
      if (m == "v4") { in.vec = 4; continue; }
      if (ignorable_modifier(m)) continue;
      fail(in.line, optext, "unsupported modifier ." + m + " in '" + optext + "'");
    }
    if ((in.op == Op::Cvt || in.op == Op::Set || in.op == Op::Slct) && types.size() == 2) { in.type = types[0]; in.type2 = types[1]; }
    else if (!types.empty()) in.type = types.back();
    if (in.op == Op::Cvt && types.size() != 2) fail(in.line, optext, "cvt needs a destination and a source type");
  }
};

}  // namespace

// The PTX lexer (ptx_lexer.hpp): identifiers keep their dots (opcodes with
// modifiers, %tid.x, directives), numbers keep their PTX spelling (0f/0d hex
// floats, exponents), comments are skipped, lines are counted.
std::vector<PtxToken> lex_ptx(const std::string& text, const std::string& origin) {
  using Tok = PtxToken;
  std::vector<Tok> out;
  uint32_t line = 1;
  size_t i = 0, n = text.size();
  auto ident_char = [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '%'; };
  while (i < n) {
    char c = text[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (std::isspace((unsigned char)c)) { ++i; continue; }
    if (c == '/' && i + 1 < n && text[i + 1] == '/') { while (i < n && text[i] != '\n') ++i; continue; }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(text[i] == '*' && text[i + 1] == '/')) { if (text[i] == '\n') ++line; ++i; }
      if (i + 1 >= n) throw InputError(Place{origin, int(line), ""}, "unterminated /* comment");
      i += 2;
      continue;
    }
    Tok t;
    t.line = line;
    t.begin = i;
    if (c == '"') {
      size_t j = i + 1;
      while (j < n && text[j] != '"' && text[j] != '\n') ++j;
      if (j >= n || text[j] != '"') throw InputError(Place{origin, int(line), ""}, "unterminated string");
      t.kind = Tok::Str; t.s = text.substr(i + 1, j - i - 1); i = j + 1;
    } else if (std::isdigit((unsigned char)c)) {
      size_t j = i;
      while (j < n && (std::isalnum((unsigned char)text[j]) || text[j] == '.' || text[j] == '_')) {
        // exponent sign in a decimal float: 1e-5
        if ((text[j] == 'e' || text[j] == 'E') && j + 1 < n && (text[j + 1] == '-' || text[j + 1] == '+') &&
            !(text[i] == '0' && i + 1 < n && (text[i + 1] == 'x' || text[i + 1] == 'X' || text[i + 1] == 'f' ||
                                              text[i + 1] == 'F' || text[i + 1] == 'd' || text[i + 1] == 'D')))
          ++j;
        ++j;
      }
      t.kind = Tok::Num; t.s = text.substr(i, j - i); i = j;
    } else if (std::isalpha((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '%') {
      size_t j = i + 1;
      while (j < n && (ident_char(text[j]) || (text[j] == ':' && j + 1 < n && text[j + 1] == ':'))) {
        if (text[j] == ':') j += 2; else ++j;  // cache-policy modifiers: .L1::no_allocate
      }
      t.kind = Tok::Ident; t.s = text.substr(i, j - i); i = j;
    } else if (std::strchr("{}[](),;:+-|!<>=@*", c)) {
      t.kind = Tok::Punct; t.s = std::string(1, c); ++i;
    } else {
      throw InputError(Place{origin, int(line), ""}, std::string("unexpected character '") + c + "'");
    }
    t.end = i;
    out.push_back(std::move(t));
  }
  Tok end;
  end.kind = Tok::End;
  end.line = line;
  end.begin = end.end = n;
  out.push_back(end);
  return out;
}


ParsedModule parse_ptx(const std::string& text, const std::string& origin, PtxDialect dialect) {
  Parser p(text, origin, dialect);
  return p.run();
}

}  // namespace warptlm
