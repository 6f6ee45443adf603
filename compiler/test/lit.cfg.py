# lit configuration of the npuc tests (compiler/test). The site file written
# by CMake supplies the tool and source paths.
import os
import sys
import lit.formats

config.name = "npuc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = config.npuc_test_src_dir
config.test_exec_root = config.npuc_test_obj_dir
# The example networks are inputs, not tests; the configs are test inputs.
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

# npuc-opt first, then FileCheck/not from the LLVM 19 install.
config.environment["PATH"] = os.pathsep.join(
    [config.npuc_tools_dir, config.npuc_driver_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%npuc_src", config.npuc_src_root))
config.substitutions.append(("%networks", os.path.join(config.npuc_src_root, "compiler", "networks")))
config.substitutions.append(("%python", sys.executable))
