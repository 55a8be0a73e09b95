// Errors that end a run. The command maps them to exit codes:
//   InputError  -> exit 2 (bad usage, bad YAML, bad PTX, missing file)
//   RunError    -> exit 1 (kernel fault, deadlock, wrong result)
// Both carry the place at fault so the message can name it.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace warptlm {

struct Place {
  std::string file;  // empty when not from a file
  int line = 0;      // 1-based; 0 when unknown
  std::string key;   // config key or PTX opcode, when known
  std::string str() const;  // "file:line: key" with absent parts left out
};

class InputError : public std::runtime_error {
 public:
  InputError(const Place& where, const std::string& what);
  explicit InputError(const std::string& what) : InputError(Place{}, what) {}
  const Place& where() const { return where_; }
 private:
  Place where_;
};

class RunError : public std::runtime_error {
 public:
  explicit RunError(const std::string& what) : std::runtime_error(what) {}
};

// A run that ended before its work did, with its stats kept: `status` is
// "limit" (a run limit), "deadlock" (nothing left to do, or the watchdog saw no
// progress) or "interrupted" (SIGINT/SIGTERM).
class RunStopped : public RunError {
 public:
  RunStopped(std::string status, const std::string& what) : RunError(what), status(std::move(status)) {}
  std::string status;
};

// Closest candidate by edit distance, or "" if none is close enough;
// used for "did you mean" suggestions.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// The whole of an input file, as bytes; InputError naming `path` and `what`
// ("cannot read <what>") when it cannot be opened.
std::string read_input_file(const std::string& path, const std::string& what);

}  // namespace warptlm
