# pybind11 and the Python it builds for (Debian's interpreter, where python3-numpy lives, unless
# Python_EXECUTABLE is given): TILECC_PYTHON is set when the Python module can be built
# (python/, test/Python).
if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3)
endif()
set(PYBIND11_FINDPYTHON ON)
# pybind11 requires Python's headers (python3-dev): without them there is no module to build.
find_package(Python COMPONENTS Interpreter Development.Module QUIET)
if(Python_Development.Module_FOUND)
  find_package(pybind11 CONFIG QUIET)
endif()
if(pybind11_FOUND)
  set(TILECC_PYTHON ${Python_EXECUTABLE})
else()
  message(STATUS "pybind11 not found: no tile_rt Python module")
endif()
