# Installs what a user of bcast needs, at GNU locations: the header,
# libbcast.so.1 (with its links), libbcast.a, bcast.pc and the CMake package
# (bcast::bcast, bcast::bcast_static). Included after the targets exist.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include(CheckCXXSymbolExists)

set(BCAST_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bcast)

install(TARGETS bcast bcast_static EXPORT bcastTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/bcast/bcast.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bcast COMPONENT dev)

# CMake package. The exported targets carry only the include directory (and
# libm for the static one): the core, xsimd and our warning flags stay private.
install(EXPORT bcastTargets NAMESPACE bcast:: FILE bcastTargets.cmake
  DESTINATION ${BCAST_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bcastConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bcastConfig.cmake INSTALL_DESTINATION ${BCAST_CMAKE_DIR})
# One SONAME per major version, so any 1.y satisfies a request for 1.x.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bcastConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bcastConfig.cmake ${PROJECT_BINARY_DIR}/bcastConfigVersion.cmake
  DESTINATION ${BCAST_CMAKE_DIR} COMPONENT dev)

# pkg-config. A static link from C needs the C++ runtime the core was built
# against (libstdc++ or libc++), libm, and threads (bcast_pool).
check_cxx_symbol_exists(_LIBCPP_VERSION "cstddef" BCAST_USES_LIBCXX)
if(BCAST_USES_LIBCXX)
  set(BCAST_PC_LIBS_PRIVATE "-lc++ -lm -pthread")
else()
  set(BCAST_PC_LIBS_PRIVATE "-lstdc++ -lm -pthread")
endif()
# Paths relative to ${prefix} only when GNUInstallDirs gave relative ones: an
# absolute libdir (some distributions pass one) is used as it is.
function(bcast_pc_path out base dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "${base}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
bcast_pc_path(BCAST_PC_LIBDIR [[${exec_prefix}]] "${CMAKE_INSTALL_LIBDIR}")
bcast_pc_path(BCAST_PC_INCLUDEDIR [[${prefix}]] "${CMAKE_INSTALL_INCLUDEDIR}")
# The prefix is known only at install time (cmake --install --prefix DIR), so
# the file is written then.
install(CODE "
  set(BCAST_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(BCAST_PC_LIBDIR [[${BCAST_PC_LIBDIR}]])
  set(BCAST_PC_INCLUDEDIR [[${BCAST_PC_INCLUDEDIR}]])
  set(BCAST_PC_LIBS_PRIVATE [[${BCAST_PC_LIBS_PRIVATE}]])
  set(PROJECT_VERSION [[${PROJECT_VERSION}]])
  configure_file([[${PROJECT_SOURCE_DIR}/cmake/bcast.pc.in]] [[${PROJECT_BINARY_DIR}/bcast.pc]] @ONLY)
" COMPONENT dev)
install(FILES ${PROJECT_BINARY_DIR}/bcast.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# What the installed library exports is pinned by abi/exports.txt (the ABI
# gate, .ci/steps/abi.sh, also compares types against abi/libbcast.abi).
if(BCAST_BUILD_TESTS)
  add_test(NAME "abi: exports match abi/exports.txt"
    COMMAND bash ${PROJECT_SOURCE_DIR}/abi/exports.sh --check $<TARGET_FILE:bcast>)
endif()
