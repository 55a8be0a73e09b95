# cmake -DWL_NAME=<workload> -DWL_PTX=<NAME.ptx> -DWL_REGS=<NAME.regs> -DWL_OUT=<generated .cpp> -P embed_ptx.cmake
# Writes a C++ file whose function warptlm_embedded_ptx_<WL_NAME>() returns the
# PTX text, held in a function-local static string built from a raw literal,
# and warptlm_embedded_regs_<WL_NAME>() the text of its ptxas register table
# (empty when WL_REGS names no file).
foreach(v WL_NAME WL_PTX WL_REGS WL_OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "embed_ptx.cmake: -D${v}= is required")
  endif()
endforeach()
file(READ "${WL_PTX}" _ptx)
set(_regs "")
if(EXISTS "${WL_REGS}")
  file(READ "${WL_REGS}" _regs)
endif()
string(FIND "${_ptx}" ")WTLMPTX\"" _clash)
if(NOT _clash EQUAL -1)
  message(FATAL_ERROR "embed_ptx.cmake: ${WL_PTX} contains the raw-string delimiter )WTLMPTX\"")
endif()
set(_text "// Generated from ${WL_PTX} by tb/workloads/embed_ptx.cmake; do not edit.
#include <string>

namespace warptlm {
const std::string& warptlm_embedded_ptx_${WL_NAME}() {
  static const std::string text = R\"WTLMPTX(${_ptx})WTLMPTX\";
  return text;
}
const std::string& warptlm_embedded_regs_${WL_NAME}() {
  static const std::string text = R\"WTLMPTX(${_regs})WTLMPTX\";
  return text;
}
}  // namespace warptlm
")
file(WRITE "${WL_OUT}.tmp" "${_text}")
file(RENAME "${WL_OUT}.tmp" "${WL_OUT}")
