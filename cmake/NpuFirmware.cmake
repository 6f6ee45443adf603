# Building RV32 firmware for npusim inside the host build.
#
# The host project is configured for the host compiler, so target code is
# compiled by custom commands calling clang-19 directly (header dependencies
# through depfiles) and linked with ld.lld-19 against picolibc and libgcc.
#
#   npu_add_firmware(<name> SOURCES <.c/.S ...> [CONFIG <cfg file>]
#                    [DEFINES <NAME[=value]> ...] [INCLUDES <dir> ...] [NO_RUNTIME]
#                    [LIBS <firmware archive> ...] [MARCH <-march>])
#
# builds <name>.elf in the current binary dir as custom target <name>; the
# target's NPU_FIRMWARE_ELF property holds the path (use it in tests with
# $<TARGET_PROPERTY:<name>,NPU_FIRMWARE_ELF>). The linker script and
# npu_platform.h come from the config (default: configs/gap9.cfg) through
# npu_fwgen, regenerated when the config changes, one set per config.
# NO_RUNTIME links only the given sources (riscv-tests style programs).
# LIBS: RV32 archives linked before the runtime (e.g. libnpurt.a, global
# property NPURT_LIB); the caller adds the dependency on their target.
# MARCH: the program's own sources are compiled for this -march instead of
# NPU_FW_MARCH (same ilp32f ABI; the runtime keeps NPU_FW_MARCH).
#
# Requires the Ninja generator: platform files generated in one directory are
# consumed by firmware targets in others, which Makefiles cannot express.
# See docs/firmware.md.

include_guard(GLOBAL)

# --- toolchain -----------------------------------------------------------------
set(_npu_fw_hint "install it with scripts/install-deps.sh")
find_program(NPU_FW_CC NAMES clang-19 HINTS /usr/lib/llvm-19/bin DOC "clang for the RV32 firmware")
find_program(NPU_FW_LD NAMES ld.lld-19 HINTS /usr/lib/llvm-19/bin DOC "lld for the RV32 firmware")
find_program(NPU_FW_AR NAMES llvm-ar-19 HINTS /usr/lib/llvm-19/bin DOC "llvm-ar for the firmware runtime archive")
if(NOT NPU_FW_CC)
  message(FATAL_ERROR "clang-19 not found (Debian package clang-19); ${_npu_fw_hint}")
endif()
if(NOT NPU_FW_LD)
  message(FATAL_ERROR "ld.lld-19 not found (Debian package lld-19); ${_npu_fw_hint}")
endif()
if(NOT NPU_FW_AR)
  message(FATAL_ERROR "llvm-ar-19 not found (Debian package llvm-19); ${_npu_fw_hint}")
endif()

# picolibc and libgcc ship the rv32imf/ilp32f multilib; our objects are
# rv32imaf/ilp32f. The float ABI matches (lld checks it) and the libraries
# simply use no atomics, so they link as they are.
set(NPU_PICOLIBC_ROOT /usr/lib/picolibc/riscv64-unknown-elf CACHE PATH "picolibc install for riscv*-unknown-elf")
set(NPU_FW_MULTILIB rv32imf/ilp32f CACHE STRING "multilib directory of picolibc/libgcc to link")
find_path(NPU_PICOLIBC_INCLUDE picolibc.h PATHS ${NPU_PICOLIBC_ROOT}/include NO_DEFAULT_PATH)
find_file(NPU_PICOLIBC_LIBC libc.a PATHS ${NPU_PICOLIBC_ROOT}/lib/${NPU_FW_MULTILIB} NO_DEFAULT_PATH)
file(GLOB _npu_libgcc_candidates /usr/lib/gcc/riscv64-unknown-elf/*/${NPU_FW_MULTILIB}/libgcc.a)
list(SORT _npu_libgcc_candidates COMPARE NATURAL ORDER DESCENDING)
if(_npu_libgcc_candidates)
  list(GET _npu_libgcc_candidates 0 _npu_libgcc_newest)  # the newest GCC version
  set(NPU_FW_LIBGCC ${_npu_libgcc_newest} CACHE FILEPATH "libgcc.a of the firmware multilib")
endif()
if(NOT NPU_PICOLIBC_INCLUDE OR NOT NPU_PICOLIBC_LIBC)
  message(FATAL_ERROR "picolibc for ${NPU_FW_MULTILIB} not found under ${NPU_PICOLIBC_ROOT} "
                      "(Debian package picolibc-riscv64-unknown-elf); ${_npu_fw_hint}")
endif()
if(NOT NPU_FW_LIBGCC)
  message(FATAL_ERROR "libgcc.a for ${NPU_FW_MULTILIB} not found under /usr/lib/gcc/riscv64-unknown-elf "
                      "(Debian package gcc-riscv64-unknown-elf); ${_npu_fw_hint}")
endif()
message(STATUS "Firmware toolchain: ${NPU_FW_CC}, ${NPU_FW_LD}, ${NPU_PICOLIBC_LIBC}, ${NPU_FW_LIBGCC}")

set(NPU_FW_DEFAULT_CONFIG ${CMAKE_CURRENT_LIST_DIR}/../configs/gap9.cfg CACHE FILEPATH
    "Platform config firmware is linked for when npu_add_firmware gets no CONFIG")
get_filename_component(NPU_FW_DEFAULT_CONFIG "${NPU_FW_DEFAULT_CONFIG}" ABSOLUTE)

# The ISA the firmware, the runtime and npuc's code are built for: GAP9's,
# RV32IMFC + the CORE-V xcvmem/xcvmac/xcvalu/xcvbi/xcvelw, without A (the
# runtime locks with the event unit's hardware mutexes, npu_mutex.h). npusim
# runs RV32IMAF plus the extensions of core.isa_extensions, so a build with A
# (-DNPU_FW_MARCH=rv32imafc_xcvmem_xcvmac_xcvalu_xcvbi_xcvelw) runs as well.
set(NPU_FW_MARCH rv32imfc_xcvmem_xcvmac_xcvalu_xcvbi_xcvelw CACHE STRING "-march of the firmware, its runtime and npuc (docs/cores.md)")
if(NOT NPU_FW_MARCH MATCHES "^rv32ima?f")
  message(FATAL_ERROR "NPU_FW_MARCH=${NPU_FW_MARCH}: must start with rv32imf (M and F: the runtime's ilp32f ABI "
                      "and arithmetic)")
endif()
set(NPU_FW_ARCH_FLAGS --target=riscv32-unknown-elf -march=${NPU_FW_MARCH} -mabi=ilp32f -mcmodel=medlow)
# -g keeps DWARF: npusim names function and file:line in its reports.
# -nostdlibinc: only picolibc's headers, never a newlib the driver might find.
set(_npu_fw_repo ${CMAKE_CURRENT_LIST_DIR}/..)
get_filename_component(_npu_fw_repo "${_npu_fw_repo}" ABSOLUTE)
# -ffile-prefix-map: __FILE__ (npu_l1_malloc's abort message) and DWARF name
# sources relative to the repository (firmware/tests/x.c), so an ELF's loaded
# bytes, and its cycles, do not depend on the folder the repository was
# cloned into (a longer path moved that string's neighbours), and reports and
# gdb name the files as the docs do. DWARF's compilation directory stays
# absolute (the objects are compiled in the repository's root,
# _npu_fw_compile): gdb finds the sources from any working directory.
set(NPU_FW_COMPILE_FLAGS ${NPU_FW_ARCH_FLAGS} -O2 -g -ffunction-sections -fdata-sections
    -std=gnu11 -Wall -Wextra -nostdlibinc -isystem ${NPU_PICOLIBC_INCLUDE} -ffile-prefix-map=${_npu_fw_repo}/=)
# An installed SDK (npusimConfig.cmake) sets its own include directory first.
if(NOT DEFINED NPU_FW_RUNTIME_INCLUDES)
  set(NPU_FW_RUNTIME_INCLUDES ${_npu_fw_repo}/firmware/runtime ${_npu_fw_repo}/models/periph
      ${_npu_fw_repo}/models/cluster ${_npu_fw_repo}/models/accel ${_npu_fw_repo}/models/dma)
endif()

# --- helpers ---------------------------------------------------------------------

# Compiles one source to <objdir>/<file>.o; appends the object to <out_var>.
function(_npu_fw_compile out_var src objdir label)
  cmake_parse_arguments(C "" "" "FLAGS;DEPENDS" ${ARGN})
  get_filename_component(src "${src}" ABSOLUTE)
  get_filename_component(base "${src}" NAME)
  set(obj ${objdir}/${base}.o)
  # Compiled in the repository's root: DWARF's compilation directory is then
  # the repository (absolute, so gdb finds the sources from anywhere), and
  # every file name in it relative (-ffile-prefix-map, NPU_FW_COMPILE_FLAGS).
  add_custom_command(OUTPUT ${obj}
    COMMAND ${NPU_FW_CC} ${C_FLAGS} -MD -MF ${obj}.d -c ${src} -o ${obj}
    DEPENDS ${src} ${C_DEPENDS}
    DEPFILE ${obj}.d
    WORKING_DIRECTORY ${_npu_fw_repo}
    COMMENT "Firmware ${label}: compiling ${base}"
    COMMAND_EXPAND_LISTS VERBATIM)
  set(${out_var} ${${out_var}} ${obj} PARENT_SCOPE)
endfunction()

# Creates (once per config) the target generating the linker script and
# npu_platform.h; returns the directory holding them and the target name.
function(_npu_fw_platform cfg dir_var target_var)
  if(cfg)
    get_filename_component(cfg "${cfg}" ABSOLUTE)
    get_filename_component(pname "${cfg}" NAME_WE)
    set(cfg_args --config ${cfg})
  else()
    set(pname schema-defaults)
    set(cfg_args)
  endif()
  string(MAKE_C_IDENTIFIER "${pname}" pid)
  set(dir ${CMAKE_BINARY_DIR}/firmware-platform/${pname})
  get_property(known GLOBAL PROPERTY NPU_FW_PLATFORM_${pid} SET)
  if(known)
    get_property(known_cfg GLOBAL PROPERTY NPU_FW_PLATFORM_${pid})
    if(NOT known_cfg STREQUAL "${cfg}")
      message(FATAL_ERROR "two firmware configs share the name ${pname}: ${known_cfg} and ${cfg}")
    endif()
  else()
    set_property(GLOBAL PROPERTY NPU_FW_PLATFORM_${pid} "${cfg}")
    add_custom_command(OUTPUT ${dir}/npu.ld ${dir}/npu_platform.h
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND npu_fwgen ${cfg_args} --ld ${dir}/npu.ld --header ${dir}/npu_platform.h
      DEPENDS npu_fwgen ${cfg}
      COMMENT "Firmware platform ${pname}: linker script and npu_platform.h"
      VERBATIM)
    add_custom_target(npu_platform_${pid} DEPENDS ${dir}/npu.ld ${dir}/npu_platform.h)
  endif()
  set(${dir_var} ${dir} PARENT_SCOPE)
  set(${target_var} npu_platform_${pid} PARENT_SCOPE)
endfunction()

# Builds the runtime (called once, from firmware/CMakeLists.txt): crt0.o is
# linked explicitly (it holds the entry), the rest goes in an archive so a
# program pulls only what it uses and can override the weak hooks.
# Archives target objects into a static library for the firmware (rebuilt
# from scratch so a removed source leaves no stale member).
function(_npu_fw_archive lib what)
  get_filename_component(name ${lib} NAME)
  add_custom_command(OUTPUT ${lib}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${lib}
    COMMAND ${NPU_FW_AR} rcs ${lib} ${ARGN}
    DEPENDS ${ARGN}
    COMMENT "${what}: archiving ${name}"
    VERBATIM)
endfunction()

function(npu_add_firmware_runtime)
  cmake_parse_arguments(R "" "CRT0" "SOURCES" ${ARGN})
  set(objdir ${CMAKE_CURRENT_BINARY_DIR}/npu_runtime.dir)
  set(flags ${NPU_FW_COMPILE_FLAGS})
  foreach(d ${NPU_FW_RUNTIME_INCLUDES})
    list(APPEND flags -I${d})
  endforeach()
  set(crt0_obj)
  _npu_fw_compile(crt0_obj ${R_CRT0} ${objdir} runtime FLAGS ${flags})
  set(objs)
  foreach(s ${R_SOURCES})
    _npu_fw_compile(objs ${s} ${objdir} runtime FLAGS ${flags})
  endforeach()
  set(lib ${CMAKE_CURRENT_BINARY_DIR}/libnpu_runtime.a)
  _npu_fw_archive(${lib} "Firmware runtime" ${objs})
  add_custom_target(npu_runtime ALL DEPENDS ${crt0_obj} ${lib})
  set_property(GLOBAL PROPERTY NPU_FW_CRT0 ${crt0_obj})
  set_property(GLOBAL PROPERTY NPU_FW_RUNTIME_LIB ${lib})
endfunction()

# --- the public function ------------------------------------------------------------
function(npu_add_firmware name)
  cmake_parse_arguments(F "NO_RUNTIME" "CONFIG;MARCH" "SOURCES;DEFINES;INCLUDES;LIBS" ${ARGN})
  if(F_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "npu_add_firmware(${name}): unknown arguments ${F_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT F_SOURCES)
    message(FATAL_ERROR "npu_add_firmware(${name}): no SOURCES")
  endif()
  if(NOT F_CONFIG)
    if(EXISTS ${NPU_FW_DEFAULT_CONFIG})
      set(F_CONFIG ${NPU_FW_DEFAULT_CONFIG})
    else()
      # Only while configs/gap9.cfg does not exist yet: the schema defaults are gap9.
      message(WARNING "npu_add_firmware(${name}): ${NPU_FW_DEFAULT_CONFIG} missing, using the schema defaults")
    endif()
  endif()
  _npu_fw_platform("${F_CONFIG}" pdir ptarget)

  set(flags ${NPU_FW_COMPILE_FLAGS} -I${pdir})
  foreach(d ${F_INCLUDES} ${NPU_FW_RUNTIME_INCLUDES})
    get_filename_component(d "${d}" ABSOLUTE)
    list(APPEND flags -I${d})
  endforeach()
  foreach(d ${F_DEFINES})
    list(APPEND flags -D${d})
  endforeach()
  if(F_MARCH)
    list(APPEND flags -march=${F_MARCH})  # the last -march wins
  endif()

  set(objdir ${CMAKE_CURRENT_BINARY_DIR}/${name}.dir)
  set(objs)
  set(seen)
  foreach(s ${F_SOURCES})
    get_filename_component(b "${s}" NAME)
    if(b IN_LIST seen)
      message(FATAL_ERROR "npu_add_firmware(${name}): two sources named ${b}")
    endif()
    list(APPEND seen ${b})
    _npu_fw_compile(objs ${s} ${objdir} ${name} FLAGS ${flags} DEPENDS ${pdir}/npu_platform.h)
  endforeach()

  set(elf ${CMAKE_CURRENT_BINARY_DIR}/${name}.elf)
  set(link_inputs ${objs} ${F_LIBS})
  set(link_deps ${objs} ${F_LIBS} ${pdir}/npu.ld)
  if(NOT F_NO_RUNTIME)
    get_property(crt0 GLOBAL PROPERTY NPU_FW_CRT0)
    get_property(rtlib GLOBAL PROPERTY NPU_FW_RUNTIME_LIB)
    if(NOT crt0)
      message(FATAL_ERROR "npu_add_firmware(${name}): the runtime is not defined yet "
                          "(npu_add_firmware_runtime in firmware/CMakeLists.txt must come first)")
    endif()
    list(PREPEND link_inputs ${crt0})
    list(APPEND link_inputs ${rtlib} --start-group ${NPU_PICOLIBC_LIBC} ${NPU_FW_LIBGCC} --end-group)
    list(APPEND link_deps ${crt0} ${rtlib})
  endif()
  add_custom_command(OUTPUT ${elf}
    COMMAND ${NPU_FW_LD} -T ${pdir}/npu.ld --gc-sections --discard-locals -Map=${CMAKE_CURRENT_BINARY_DIR}/${name}.map
            -o ${elf} ${link_inputs}
    DEPENDS ${link_deps}
    BYPRODUCTS ${CMAKE_CURRENT_BINARY_DIR}/${name}.map
    COMMENT "Firmware ${name}: linking ${name}.elf"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${elf})
  add_dependencies(${name} ${ptarget})
  if(NOT F_NO_RUNTIME AND TARGET npu_runtime)  # an installed SDK's runtime is prebuilt
    add_dependencies(${name} npu_runtime)
  endif()
  set_target_properties(${name} PROPERTIES NPU_FIRMWARE_ELF ${elf})
endfunction()
