// Block factories: the SoC builds a replaceable block through the model its
// config names (`<block>.model`, a schema choice). Adding a model — an RTL
// engine behind the same register front end, a TCDM-aware engine — is one
// entry here and one schema choice; soc.cpp does not change.
#pragma once

#include "accel/systolic_array.h"

#include "config/config.h"

#include <memory>

namespace npu::platform {

// The systolic array: its register front end with the engine sa.model names.
std::unique_ptr<accel::systolic_array> make_systolic_array(const char* name, const cfg::config& cfg);

}  // namespace npu::platform
