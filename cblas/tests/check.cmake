# Runs one test program and checks what it did, for the tests that ctest
# alone cannot judge: the exit status, and regular expressions that its
# output (stdout and stderr together) must or must not match. Lists are
# separated by "@@" (semicolons do not survive add_test, and "|" belongs to
# the regular expressions):
#   cmake -DCOMMAND=prog@@arg -DENV=NAME=value@@... -DEXPECT=re@@... -DFORBID=re@@... -P check.cmake
foreach(v COMMAND ENV EXPECT FORBID)
  string(REPLACE "@@" ";" ${v} "${${v}}")
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENV} ${COMMAND}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
message("---- stdout\n${out}---- stderr\n${err}----")
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "exit status ${rc}")
endif()
foreach(re IN LISTS EXPECT)
  if(NOT "${out}${err}" MATCHES "${re}")
    message(FATAL_ERROR "output does not match: ${re}")
  endif()
endforeach()
foreach(re IN LISTS FORBID)
  if("${out}${err}" MATCHES "${re}")
    message(FATAL_ERROR "output matches what it must not: ${re}")
  endif()
endforeach()
