// Helpers for tests that run the warptlm executable (WARPTLM_EXE) as a user
// would: a temporary directory per test, running a command and capturing its
// output, reading and writing files. Shared by test_cli.cpp and test_trace.cpp.
#pragma once
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef WARPTLM_EXE
#error "WARPTLM_EXE must name the warptlm executable (set by tb/tests/CMakeLists.txt)"
#endif
#ifndef WARPTLM_SOURCE_DIR
#error "WARPTLM_SOURCE_DIR must name the source tree (set by tb/tests/CMakeLists.txt)"
#endif

namespace cli_util {

// A fresh directory under the system temp folder, removed with everything in it.
struct TempDir {
  std::string path;
  explicit TempDir(const std::string& prefix = "warptlm_cli") {
    std::string templ = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) FAIL("mkdtemp failed");
    path = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

struct CmdResult {
  int code = -1;    // exit status; -1 if killed by a signal
  std::string out;  // stdout and stderr together
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

// Run `warptlm ARGS` (ARGS already shell-quoted) in `cwd` (or here), capturing
// stdout and stderr into `scratch`/cmd_output.txt.
inline CmdResult warptlm(const TempDir& scratch, const std::string& args, const std::string& cwd = "") {
  const std::string log = scratch / "cmd_output.txt";
  std::string cmd;
  if (!cwd.empty()) cmd += "cd '" + cwd + "' && ";
  cmd += "SC_COPYRIGHT_MESSAGE=DISABLE '" WARPTLM_EXE "' " + args + " > '" + log + "' 2>&1";
  int status = std::system(cmd.c_str());
  CmdResult r;
  r.code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  r.out = slurp(log);
  return r;
}

inline std::string q(const std::string& s) { return "'" + s + "'"; }

inline bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace cli_util
