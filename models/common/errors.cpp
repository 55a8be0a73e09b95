#include "common/errors.hpp"

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <sstream>

namespace warptlm {

std::string Place::str() const {
  std::string s = file;
  if (!file.empty() && line > 0) s += ":" + std::to_string(line);
  if (!key.empty()) {
    if (!s.empty()) s += ": ";
    s += key;
  }
  return s;
}

namespace {

bool quotes(const std::string& msg, const std::string& word) {
  return !word.empty() && msg.find("'" + word + "'") != std::string::npos;
}

// "file:line: key: message", leaving out what the message already names in
// quotes (so "cannot open config file 'x.yaml'" is not prefixed with "x.yaml: ").
std::string compose(const Place& where, const std::string& msg) {
  Place p = where;
  if (p.line <= 0 && quotes(msg, p.file)) p.file.clear();
  if (quotes(msg, p.key)) p.key.clear();
  std::string prefix = p.str();
  return prefix.empty() ? msg : prefix + ": " + msg;
}

size_t levenshtein(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string last_component(const std::string& s) {
  size_t dot = s.rfind('.');
  return dot == std::string::npos ? s : s.substr(dot + 1);
}

}  // namespace

InputError::InputError(const Place& where, const std::string& what)
    : std::runtime_error(compose(where, what)), where_(where) {}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty() || candidates.empty()) return "";
  // Pass 1: the whole dotted key.
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_d = limit + 1;
  for (const auto& c : candidates) {
    size_t d = levenshtein(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  if (!best.empty()) return best;
  // Pass 2: the last component ("sm.num_sms" -> "gpu.num_sms"), tie broken
  // by distance on the whole key.
  const std::string tail = last_component(word);
  if (tail.empty()) return "";
  const size_t tail_limit = std::max<size_t>(1, tail.size() / 3);
  size_t best_whole = 0;
  best_d = tail_limit + 1;
  for (const auto& c : candidates) {
    size_t d = levenshtein(tail, last_component(c));
    if (d > tail_limit) continue;
    size_t whole = levenshtein(word, c);
    if (d < best_d || (d == best_d && whole < best_whole)) {
      best_d = d;
      best_whole = whole;
      best = c;
    }
  }
  return best;
}

std::string read_input_file(const std::string& path, const std::string& what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(Place{path, 0, ""}, "cannot read " + what);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace warptlm
