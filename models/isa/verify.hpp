// The load-time verifier: what the executor relies on about each linked
// instruction, checked once so that no PTX, however wrong, can make it read
// or write the wrong register file (ir.hpp).
#pragma once
#include <string>

#include "isa/ir.hpp"

namespace warptlm {

// Operand count and kinds of one instruction: data registers where data goes,
// predicates where predicates go, an address where memory is reached, and
// immediates only as sources. Barrier ids and thread counts given as
// immediates must be within the hardware's (16 barriers, multiples of 32
// threads). On a refusal, `why` says which operand is wrong and how.
bool verify_operands(const Instr& in, std::string& why);

}  // namespace warptlm
