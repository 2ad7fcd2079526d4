# libiosim (docs/library.md): the shared library libiosim.so.0 and the static libiosim.a over the layers' objects,
# exporting only the public API (IOSIM_API, and src/lib/libiosim.map); their installation with the public headers,
# iosim.pc and the CMake package (find_package(iosim) -> iosim::iosim); and the Python module (python/).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(IOSIM_LAYERS iosim_base iosim_model iosim_policies iosim_inputs iosim_sim iosim_output iosim_storalloc iosim_lib)

# The shared library: libiosim's own objects, and the objects of the layers below that they use (static, PIC).
add_library(iosim_shared SHARED $<TARGET_OBJECTS:iosim_lib>)
target_link_libraries(iosim_shared PRIVATE iosim_storalloc iosim_output PkgConfig::SIMGRID PkgConfig::CJSON)
target_include_directories(iosim_shared INTERFACE $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                                                  $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>)
set_target_properties(iosim_shared PROPERTIES OUTPUT_NAME iosim VERSION ${PROJECT_VERSION} SOVERSION ${IOSIM_SOVERSION}
                                              LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/lib/libiosim.map)
target_link_options(iosim_shared PRIVATE -Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/src/lib/libiosim.map
                    -Wl,--no-undefined)

# The static library: every layer's objects in one archive (its users link SimGrid, cJSON, zlib, bzip2 and libstdc++:
# `pkg-config --static --libs iosim`).
set(iosim_objects)
foreach(l ${IOSIM_LAYERS})
  list(APPEND iosim_objects $<TARGET_OBJECTS:${l}>)
endforeach()
add_library(iosim_static STATIC ${iosim_objects})
set_target_properties(iosim_static PROPERTIES OUTPUT_NAME iosim)

# The public headers: include/iosim/*.h and the generated version.h; no internal header is installed.
file(GLOB IOSIM_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/include/iosim/*.h)
install(TARGETS iosim_shared iosim_static LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${IOSIM_PUBLIC_HEADERS} ${CMAKE_BINARY_DIR}/include/iosim/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/iosim)

# pkg-config and CMake package files, relocatable (found relative to where they are installed).
file(RELATIVE_PATH IOSIM_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
file(RELATIVE_PATH IOSIM_CMAKE_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/cmake/iosim /)
configure_file(cmake/iosim.pc.in ${CMAKE_BINARY_DIR}/iosim.pc @ONLY)
configure_file(cmake/iosimConfig.cmake.in ${CMAKE_BINARY_DIR}/iosimConfig.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/iosimConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/iosim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${CMAKE_BINARY_DIR}/iosimConfig.cmake ${CMAKE_BINARY_DIR}/iosimConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/iosim)

# The Python package `iosim` (python/iosim/: docs/library.md, docs/architecture.md): the compiled module iosim._core
# (pybind11 from Debian, for IOSIM_PYTHON: every python/*.cpp, over the public API of libiosim.so only) and the pure
# Python modules of iosim's own commands (report, view, compare, calibrate and what they import). In the build tree the
# package is build/python/iosim/: _core beside links to the sources (an edit needs no rebuild); installed into
# PREFIX/lib/python3/dist-packages/iosim.
set(PYBIND11_FINDPYTHON ON)
set(Python_EXECUTABLE ${IOSIM_PYTHON})
find_package(pybind11 CONFIG REQUIRED)
file(GLOB IOSIM_PYTHON_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/python/*.cpp)
pybind11_add_module(iosim_python MODULE ${IOSIM_PYTHON_SOURCES})
set_target_properties(iosim_python PROPERTIES OUTPUT_NAME _core LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/python/iosim
                                              INSTALL_RPATH "$ORIGIN/../../..")
target_compile_options(iosim_python PRIVATE ${IOSIM_WARNINGS})
target_link_libraries(iosim_python PRIVATE iosim_shared)
file(GLOB IOSIM_PYTHON_PACKAGE CONFIGURE_DEPENDS LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/python/iosim
     ${CMAKE_CURRENT_SOURCE_DIR}/python/iosim/*)
list(FILTER IOSIM_PYTHON_PACKAGE EXCLUDE REGEX "__pycache__")
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/python/iosim)
foreach(f IN LISTS IOSIM_PYTHON_PACKAGE) # each file and subfolder of the package, linked
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/python/iosim/${f} ${CMAKE_BINARY_DIR}/python/iosim/${f} SYMBOLIC)
endforeach()
set(IOSIM_PYTHON_DIR lib/python3/dist-packages)
install(TARGETS iosim_python LIBRARY DESTINATION ${IOSIM_PYTHON_DIR}/iosim)
install(DIRECTORY python/iosim DESTINATION ${IOSIM_PYTHON_DIR} FILES_MATCHING PATTERN "*.py" PATTERN "*.html"
        PATTERN "*.js" PATTERN "*.css" PATTERN "*.json" PATTERN "*.md" PATTERN "__pycache__" EXCLUDE)
