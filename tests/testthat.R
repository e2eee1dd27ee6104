library(testthat)
library(costbo)

# Under R CMD check with NOT_CRAN=true (CI, a developer's check) the test
# files run in parallel, in TESTTHAT_CPUS worker processes (2 by default),
# the slowest first (Config/testthat/start-first in DESCRIPTION). This is
# switched on here rather than by Config/testthat/parallel because
# testthat 3.1.6 deletes the _snaps/ files of every file that a parallel
# run went through (r-lib/testthat#1793): harmless in R CMD check's copy of
# the tests, not in a working tree. TESTTHAT_PARALLEL=false turns it off.
if (identical(Sys.getenv("NOT_CRAN"), "true") &&
    !nzchar(Sys.getenv("TESTTHAT_PARALLEL"))) {
  Sys.setenv(TESTTHAT_PARALLEL = "true")
}

# A crash in the C core ends its worker silently, and testthat only names
# the file; that file is then run again in this process, so that R's
# segfault report and the traceback down to the test block land in this
# output (where .ci/run looks for them).
tryCatch(test_check("costbo"), error = function(e) {
  msg <- conditionMessage(e)
  file <- regmatches(msg, regexpr("test-[^`'\" ]+[.][rR]", msg))
  if (grepl("subprocess exited", msg, fixed = TRUE) && length(file) == 1L) {
    cat("A test process exited in ", file, "; running it in this process:\n",
        sep = "")
    Sys.setenv(TESTTHAT_PARALLEL = "false")
    test_check("costbo", filter = sub("^test-?(.*)[.][rR]$", "^\\1$", file))
  }
  stop(e)
})
