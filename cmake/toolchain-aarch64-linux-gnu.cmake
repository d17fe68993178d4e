# Cross toolchain for Debian's g++-aarch64-linux-gnu (bookworm); ctest runs the
# target's programs under qemu-aarch64 with the cross C library.
#   cmake -S . -B <dir> -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
# Needs: g++-aarch64-linux-gnu qemu-user (plus the host's catch2 and libxsimd-dev).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)

# Catch2 2.13 and xsimd are header-only and arch-independent, but Debian puts
# them in the host's /usr/include, beside the host's C library headers: an
# -isystem /usr/include would mix those into the cross build. So the host
# packages are exposed through a prefix of their own in the build tree, which
# holds nothing else, and is searched like the target's root.
set(BCAST_HOST_HEADERS "${CMAKE_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${BCAST_HOST_HEADERS}/include" "${BCAST_HOST_HEADERS}/lib/cmake/Catch2")
foreach(dir IN ITEMS catch2 xsimd)
  if(EXISTS "/usr/include/${dir}" AND NOT EXISTS "${BCAST_HOST_HEADERS}/include/${dir}")
    file(CREATE_LINK "/usr/include/${dir}" "${BCAST_HOST_HEADERS}/include/${dir}" SYMBOLIC)
  endif()
endforeach()
# Links to the files, not the directory: Debian's Catch2Config.cmake maps a
# directory that resolves to /usr/lib/cmake/Catch2 back to the prefix /usr.
# Catch2Targets-none.cmake stays out: it points Catch2::Catch2WithMain at the
# host's x86 libCatch2WithMain.a, which no aarch64 program can link (bcast has
# its own main, tests/catch_main.cpp).
file(GLOB _bcast_catch2_files /usr/lib/cmake/Catch2/*.cmake)
foreach(file IN LISTS _bcast_catch2_files)
  get_filename_component(name "${file}" NAME)
  if(name MATCHES "^Catch2Targets-")
    continue()
  endif()
  if(NOT EXISTS "${BCAST_HOST_HEADERS}/lib/cmake/Catch2/${name}")
    file(CREATE_LINK "${file}" "${BCAST_HOST_HEADERS}/lib/cmake/Catch2/${name}" SYMBOLIC)
  endif()
endforeach()

# Target libraries, headers and packages only from the cross root and that
# prefix; programs (python3, nm, ...) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu "${BCAST_HOST_HEADERS}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
