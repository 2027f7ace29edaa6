# What `cmake --install` puts under the prefix, and the Debian package `cpack -G DEB` makes of
# it:
#   bin/tilecc, bin/tilecc-opt            the compiler and its pass driver
#   bin/tile-launch                        one process per rank of a communicator
#   lib/libtileccPlugin.so                 the analyses as a Clang plugin (-fplugin=)
#   include/tile/                          the tile language and host API headers
#   lib/libtile_rt.a, lib/libtile_rt.so    the runtime (tilecc::tile_rt, tilecc::tile_rt_shared)
#   share/tilecc/runtime/device/           the device headers the generated CUDA includes
#   lib/cmake/tilecc/                      tileccConfig.cmake (find_package(tilecc)), its
#                                          version file, the exported targets and
#                                          tilecc_add_kernels
# Every path in the package is relative to the prefix: the tree may be moved.
include(CMakePackageConfigHelpers)

set(TILECC_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/tilecc")

# The compiler finds Debian's LLVM, Clang and MLIR libraries where the build found them.
set_target_properties(tilecc tilecc-opt PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS tilecc tilecc-opt RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(PROGRAMS "${PROJECT_SOURCE_DIR}/scripts/tile-launch" DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS tileccPlugin LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(TARGETS tile_rt tile_rt_shared EXPORT tileccTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/tile" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/device"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/tilecc/runtime")
install(EXPORT tileccTargets NAMESPACE tilecc:: DESTINATION "${TILECC_CMAKE_DIR}")

configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/tileccConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/tileccConfig.cmake" INSTALL_DESTINATION "${TILECC_CMAKE_DIR}"
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_DATADIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/tileccConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/tileccConfig.cmake"
  "${PROJECT_BINARY_DIR}/tileccConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/TileccKernels.cmake"
  DESTINATION "${TILECC_CMAKE_DIR}")

# cpack -G DEB: the compiler needs LLVM, Clang and MLIR 19 from Debian at run time.
set(CPACK_PACKAGE_NAME tilecc)
set(CPACK_PACKAGE_VENDOR "tilecc")
set(CPACK_PACKAGE_CONTACT "tilecc maintainers <maintainers@tilecc.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Safe GPU tile kernels in C++: compiler, runtime, headers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-cpp19, libmlir-19, libllvm19, libstdc++6")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
