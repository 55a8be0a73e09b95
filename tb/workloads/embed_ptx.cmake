# cmake -DWL_NAME=<workload> -DWL_PTX=<NAME.ptx> -DWL_OUT=<generated .cpp> -P embed_ptx.cmake
# Writes a C++ file whose function warptlm_embedded_ptx_<WL_NAME>() returns the
# PTX text, held in a function-local static string built from a raw literal.
foreach(v WL_NAME WL_PTX WL_OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "embed_ptx.cmake: -D${v}= is required")
  endif()
endforeach()
file(READ "${WL_PTX}" _ptx)
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
}  // namespace warptlm
")
file(WRITE "${WL_OUT}.tmp" "${_text}")
file(RENAME "${WL_OUT}.tmp" "${WL_OUT}")
