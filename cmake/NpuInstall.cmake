# cmake --install <build> --prefix P: the npusim SDK (docs/firmware.md, "An
# installed SDK"):
#   P/bin/                      npusim, npuc, npu_fwgen (the linker-script generator)
#   P/lib/npusim/firmware/      crt0.o, libnpu_runtime.a, libnpurt.a (RV32)
#   P/include/npusim/firmware/  the runtime's headers and the register maps they include
#   P/share/npusim/configs/     the platform configs
#   P/lib/cmake/npusim/         find_package(npusim): npu_add_firmware() and the tools
include(CMakePackageConfigHelpers)

set(NPU_INSTALL_FWLIBDIR lib/npusim/firmware)
set(NPU_INSTALL_FWINCDIR include/npusim/firmware)
set(NPU_INSTALL_CONFIGDIR share/npusim/configs)
set(NPU_INSTALL_CMAKEDIR lib/cmake/npusim)
set(NPU_SDK_VERSION 0.1.0)

# The tools find LLVM's shared library where the build found it.
set_target_properties(npusim npu_fwgen PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS npusim npu_fwgen RUNTIME DESTINATION bin)
# npuc and its RV32 pieces are not built in sanitizer/fuzz builds (compiler/ is
# EXCLUDE_FROM_ALL there): installed when they exist.
if(TARGET npuc)
  set_target_properties(npuc PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS npuc RUNTIME DESTINATION bin OPTIONAL)
endif()

get_property(_npu_crt0 GLOBAL PROPERTY NPU_FW_CRT0)
get_property(_npu_rtlib GLOBAL PROPERTY NPU_FW_RUNTIME_LIB)
install(FILES ${_npu_crt0} DESTINATION ${NPU_INSTALL_FWLIBDIR} RENAME crt0.o)
install(FILES ${_npu_rtlib} DESTINATION ${NPU_INSTALL_FWLIBDIR})
get_property(_npu_npurt GLOBAL PROPERTY NPURT_LIB)
if(_npu_npurt)
  install(FILES ${_npu_npurt} DESTINATION ${NPU_INSTALL_FWLIBDIR} OPTIONAL)
endif()
get_property(_npuc_main GLOBAL PROPERTY NPUC_MAIN_OBJ)
if(_npuc_main)
  install(FILES ${_npuc_main} DESTINATION ${NPU_INSTALL_FWLIBDIR} RENAME npuc_main.o OPTIONAL)
endif()

foreach(_dir ${NPU_FW_RUNTIME_INCLUDES})
  file(GLOB _hdrs ${_dir}/npu*.h ${_dir}/*_regs.h)
  install(FILES ${_hdrs} DESTINATION ${NPU_INSTALL_FWINCDIR})
endforeach()
file(GLOB _npu_cfgs ${PROJECT_SOURCE_DIR}/configs/*.cfg)
install(FILES ${_npu_cfgs} DESTINATION ${NPU_INSTALL_CONFIGDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/package/npusimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/npusimConfig.cmake INSTALL_DESTINATION ${NPU_INSTALL_CMAKEDIR} NO_SET_AND_CHECK_MACRO
  NO_CHECK_REQUIRED_COMPONENTS_MACRO)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/npusimConfigVersion.cmake VERSION ${NPU_SDK_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/npusimConfig.cmake ${PROJECT_BINARY_DIR}/npusimConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/NpuFirmware.cmake DESTINATION ${NPU_INSTALL_CMAKEDIR})
