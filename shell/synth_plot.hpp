// The regions of a synthesis as an SVG picture, after Češka et al. 2017
// Fig. 1/3: one parameter, a bar per region spanning its value bounds over
// the parameter axis; two, a coloured rectangle per region; three, one
// such panel per slice of the third parameter. Hand-written SVG text.
#pragma once

#include <string>

#include "synth/synthesis.hpp"

namespace pmc::shell {

// Throws Error(io) when the file cannot be written.
void write_synthesis_svg(const SynthesisResult& result, const std::string& path);

}  // namespace pmc::shell
