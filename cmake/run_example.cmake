# ctest: install this build into a prefix, build an example platform against the
# installed package (find_package(WarpTLM)), and run it; it exits 0 only when
# every result checks. Called with -DBUILD_DIR= -DEXAMPLE_DIR= -DWORK_DIR=, and
# from a sanitized build with -DEXAMPLE_CXX= -DEXAMPLE_LINK_FLAGS= (its libraries
# need the same compiler's sanitizer runtimes).
set(extra "")
if(EXAMPLE_CXX)
  set(extra -DCMAKE_CXX_COMPILER=${EXAMPLE_CXX} "-DCMAKE_EXE_LINKER_FLAGS=${EXAMPLE_LINK_FLAGS}")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                        -DCMAKE_BUILD_TYPE=Release ${extra} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the example against the installed package failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the example failed (${rc})")
endif()
get_filename_component(name ${EXAMPLE_DIR} NAME)
execute_process(COMMAND ${WORK_DIR}/build/${name} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the example exited ${rc}")
endif()
if(NOT out MATCHES "verified")
  message(FATAL_ERROR "the example did not verify its results")
endif()
