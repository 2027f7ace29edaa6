# Finds Clang, MLIR and LLVM 19 (Debian's packages by default) and fmt, and makes their CMake
# helpers (mlir_tablegen, add_public_tablegen_target) available.
if(NOT DEFINED LLVM_PREFIX)
  find_program(TILECC_LLVM_CONFIG NAMES llvm-config-19 llvm-config REQUIRED)
  execute_process(COMMAND ${TILECC_LLVM_CONFIG} --prefix OUTPUT_VARIABLE LLVM_PREFIX
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
find_package(MLIR REQUIRED CONFIG HINTS ${LLVM_PREFIX}/lib/cmake/mlir)
find_package(Clang REQUIRED CONFIG HINTS ${LLVM_PREFIX}/lib/cmake/clang)
find_package(fmt REQUIRED)
message(STATUS "tilecc: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_PREFIX}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

set(TILECC_CLANG_RESOURCE_DIR "${LLVM_PREFIX}/lib/clang/${LLVM_VERSION_MAJOR}")
set(TILECC_LLVM_TOOLS_DIR "${LLVM_PREFIX}/bin")

# Compiler libraries: LLVM/MLIR headers as system headers, no RTTI/exceptions like LLVM.
function(tilecc_add_library name)
  add_library(${name} STATIC ${ARGN})
  target_include_directories(${name} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS}
                             ${CLANG_INCLUDE_DIRS})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/include
                             ${PROJECT_BINARY_DIR}/include)
  target_compile_options(${name} PRIVATE -fno-rtti -Wall -Wno-unused-parameter)
endfunction()

# TableGen reads the directory include path.
include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
include_directories(${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include)
separate_arguments(TILECC_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_definitions(${TILECC_LLVM_DEFINITIONS})
