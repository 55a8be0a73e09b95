// The headers every test file parses (Catch2, SystemC and TLM, yaml-cpp, the standard library), compiled once
// into a precompiled header that each warptlm_test target reuses (tb/tests/CMakeLists.txt). Only headers from
// outside the project: a model header changing rebuilds the tests that include it, not all of them.
#pragma once
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>
