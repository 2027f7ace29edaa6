# tilecc_add_kernels(<target> SOURCES a.tile.cpp ... [OPTIONS flags...] [ARCHS sm_80 sm_90a])
#
# Runs `tilecc compile` on each tile source and adds the generated CUDA file (the source plus
# its kernels) to <target> in place of the source. The .cu is regenerated when the source or any
# header it includes changes (tilecc writes a depfile). <target> links tile_rt.
function(tilecc_add_kernels target)
  cmake_parse_arguments(ARG "" "" "SOURCES;OPTIONS;ARCHS" ${ARGN})
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
      COMMAND tilecc compile "${abs}" -o "${out}" -MF "${out}.d" -I "${dir}" --arch=${arch_list}
              ${ARG_OPTIONS}
      DEPENDS "${abs}" tilecc
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
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/runtime")
  target_link_libraries(${target} PRIVATE tile_rt)
endfunction()
