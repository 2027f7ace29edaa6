# tilecc_add_kernels(<target> SOURCES a.tile.cpp ... [OPTIONS flags...] [ARCHS sm_80 sm_90a])
#
# With CUDA enabled in the project, runs `tilecc compile` on each tile source and adds the
# generated CUDA file (the source plus its kernels) to <target> in place of the source; the
# .cu is regenerated when the source or any header it includes changes (tilecc writes a
# depfile). Without CUDA, the tile sources are added as they are: plain C++ whose kernels run
# on the CPU backend. Either way <target> links tile_rt, and other sources of <target> may
# launch the kernels the tile sources define.
#
# Used in this tree and, installed, by find_package(tilecc): `tilecc::tilecc` is the compiler,
# `tilecc::tile_rt` the runtime, TILECC_RUNTIME_DIR the device headers the generated code
# includes.
function(tilecc_add_kernels target)
  cmake_parse_arguments(ARG "" "" "SOURCES;OPTIONS;ARCHS" ${ARGN})
  target_link_libraries(${target} PRIVATE tilecc::tile_rt)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    target_sources(${target} PRIVATE ${ARG_SOURCES})
    set_source_files_properties(${ARG_SOURCES} PROPERTIES LANGUAGE CXX)
    target_compile_features(${target} PRIVATE cxx_std_20)
    return()
  endif()
  if(NOT ARG_ARCHS)
    set(ARG_ARCHS sm_80 sm_90a)
  endif()
  # tilecc plans shared memory for the tightest of the targets.
  string(REPLACE ";" "," arch_list "${ARG_ARCHS}")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME)
    get_filename_component(dir "${abs}" DIRECTORY)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/tilecc/${target}/${name}.cu")
    add_custom_command(OUTPUT "${out}"
      COMMAND "$<TARGET_FILE:tilecc::tilecc>" compile "${abs}" -o "${out}" -MF "${out}.d"
              -I "${dir}" --arch=${arch_list} ${ARG_OPTIONS}
      DEPENDS "${abs}" "$<TARGET_FILE:tilecc::tilecc>"
      DEPFILE "${out}.d"
      COMMENT "tilecc compile ${name}"
      VERBATIM)
    target_sources(${target} PRIVATE "${out}")
    set_source_files_properties("${out}" PROPERTIES LANGUAGE CUDA)
    target_include_directories(${target} PRIVATE "${dir}")
  endforeach()
  foreach(arch IN LISTS ARG_ARCHS)
    string(REPLACE "sm_" "" num "${arch}")
    target_compile_options(${target} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:-gencode=arch=compute_${num},code=sm_${num}>")
  endforeach()
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF CUDA_STANDARD 20)
  target_include_directories(${target} PRIVATE "${TILECC_RUNTIME_DIR}")
endfunction()
