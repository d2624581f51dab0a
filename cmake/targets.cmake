# flakescan_targets_below(dir out): the targets made in source directory `dir` and in every
# directory added below it (including those added from there with another source path).
include_guard(GLOBAL)
function(flakescan_targets_below dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    flakescan_targets_below(${sub} below)
    list(APPEND targets ${below})
  endforeach()
  list(REMOVE_DUPLICATES targets)
  set(${out} ${targets} PARENT_SCOPE)
endfunction()
