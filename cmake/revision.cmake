# The git revision compiled into syncml-server (src/telemetry/build_info.hpp): SYNCML_REVISION when given (the
# container build passes its build argument: its context has no .git), else `git rev-parse` at configure time, else
# "unknown". Only the generated build_info_revision.cpp holds it, and configure_file rewrites that file only when the
# text changes, so a new commit recompiles one small file and relinks; nothing else is rebuilt.
set(SYNCML_REVISION "" CACHE STRING "git revision to compile in; empty: from git at configure time")
set(SYNCML_REVISION_TEXT "${SYNCML_REVISION}")

# git_file(VAR NAME): the absolute path of .git/NAME (worktrees included), empty when git does not know it.
function(syncml_git_file var name)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path ${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE path OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(path)
        get_filename_component(path "${path}" ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
    endif()
    set(${var} "${path}" PARENT_SCOPE)
endfunction()

if(NOT SYNCML_REVISION_TEXT OR SYNCML_REVISION_TEXT STREQUAL "unknown")
    set(SYNCML_REVISION_TEXT "unknown")
    find_package(Git QUIET)
    if(GIT_FOUND)
        execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                        OUTPUT_VARIABLE git_revision RESULT_VARIABLE git_status
                        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        if(git_status EQUAL 0 AND git_revision)
            set(SYNCML_REVISION_TEXT "${git_revision}")
            # A checkout changes HEAD, a commit the branch's ref: either makes the next build configure again (which
            # is quick) and so pick up the new revision.
            execute_process(COMMAND ${GIT_EXECUTABLE} symbolic-ref -q HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                            OUTPUT_VARIABLE branch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
            foreach(name HEAD ${branch})
                syncml_git_file(path ${name})
                if(path AND EXISTS "${path}")
                    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${path}")
                endif()
            endforeach()
        endif()
    endif()
endif()
# Into a C++ string literal: a build argument is not trusted to be a commit id.
if(NOT SYNCML_REVISION_TEXT MATCHES "^[0-9A-Za-z._+-]+$")
    set(SYNCML_REVISION_TEXT "unknown")
endif()
message(STATUS "syncml-server revision: ${SYNCML_REVISION_TEXT}")
