# Proves the engine's layering (engine/CMakeLists.txt, docs/architecture.md):
# for every layer L, a file compiled with L's include roots
#   * can include a header of L (positive control: the flags are right, so a
#     failure below is the layering's doing; L's headers include its
#     dependencies' headers in turn);
#   * cannot include a header of any other layer: the compiler must stop with
#     "No such file or directory" naming that header.
# Run by ctest (tests/CMakeLists.txt) as
#   cmake -DCXX=... -DLAYERS=a,b -DDEPENDS_<layer>=x,y -DROOT=... -DSOURCE=... -DEIGEN=... -P check_layers.cmake
# (lists comma-separated).
cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" LAYERS "${LAYERS}")
foreach(layer IN LISTS LAYERS)
  string(REPLACE "," ";" DEPENDS_${layer} "${DEPENDS_${layer}}")
endforeach()
if(NOT ROOT OR NOT EXISTS ${ROOT})
  message(FATAL_ERROR "no layer include roots at '${ROOT}'")
endif()

# The transitive closure of a layer's dependencies, the layer included.
function(closure layer out)
  set(seen ${layer})
  set(queue ${DEPENDS_${layer}})
  while(queue)
    list(POP_FRONT queue next)
    if(NOT next IN_LIST seen)
      list(APPEND seen ${next})
      list(APPEND queue ${DEPENDS_${next}})
    endif()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# A header of each layer to include (the facade is one header).
foreach(layer IN LISTS LAYERS)
  if(layer STREQUAL "simulation")
    set(header_${layer} "engine/simulation.h")
  else()
    file(GLOB headers RELATIVE ${SOURCE} ${SOURCE}/engine/${layer}/*.h)
    list(SORT headers)
    list(GET headers 0 first)
    set(header_${layer} ${first})
  endif()
endforeach()

set(work ${CMAKE_CURRENT_BINARY_DIR}/layering_probes)
file(MAKE_DIRECTORY ${work})
set(failures "")
set(checked 0)
foreach(layer IN LISTS LAYERS)
  closure(${layer} allowed)
  set(flags -std=c++20 -fsyntax-only -isystem ${EIGEN})
  foreach(dep IN LISTS allowed)
    list(APPEND flags -I${ROOT}/${dep})
  endforeach()
  foreach(other IN LISTS LAYERS)
    if(other IN_LIST allowed AND NOT other STREQUAL layer)
      continue()  # Allowed, and compiled through L's own headers.
    endif()
    set(probe ${work}/${layer}_includes_${other}.cpp)
    file(WRITE ${probe} "#include \"${header_${other}}\"\n")
    execute_process(COMMAND ${CXX} ${flags} ${probe} RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_QUIET)
    math(EXPR checked "${checked} + 1")
    if(other STREQUAL layer)
      if(NOT status EQUAL 0)
        string(APPEND failures "  ${layer} may include ${header_${other}} but could not:\n${err}\n")
      endif()
    else()
      string(FIND "${err}" "${header_${other}}: No such file or directory" found)
      if(status EQUAL 0 OR found EQUAL -1)
        string(APPEND failures "  ${layer} must not see ${header_${other}} (exit ${status}):\n${err}\n")
      endif()
    endif()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "engine layering violated:\n${failures}")
endif()
message(STATUS "engine layering holds: ${checked} include probes over the layers ${LAYERS}")
