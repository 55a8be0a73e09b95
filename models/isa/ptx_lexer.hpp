// PTX tokens, shared by the front end and the PTX-to-PTX passes (which need
// each token's byte range to rewrite the text in place).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warptlm {

struct PtxToken {
  enum Kind { Ident, Num, Str, Punct, End } kind = End;
  std::string s;          // the token (a string's contents without quotes)
  uint32_t line = 0;      // 1-based
  size_t begin = 0, end = 0;  // byte range in the text
  bool is(const char* p) const { return kind == Punct && s == p; }
};

// Tokens of `text`, ending with one End token; InputError names `origin` and
// the line of a malformed comment, string or character.
std::vector<PtxToken> lex_ptx(const std::string& text, const std::string& origin);

}  // namespace warptlm
