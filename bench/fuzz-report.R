# Counts of the fuzz test's outcomes (issue 16), by outcome and by function.
#   R_LIBS=<lib> Rscript bench/fuzz-report.R [out.rds]
# Outcomes: returned; costbo_named (a costbo_error naming an argument of the
# function, with the user's call); costbo_unnamed; wrong_call; internal
# (any other error, including plain errors raised in C); hang (over the per-call time limit).
suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
src <- Sys.getenv("COSTBO_SRC", ".")
source(file.path(src, "tests/testthat/helper-fuzz.R"))
t0 <- proc.time()[["elapsed"]]
res <- fuzz_run()
cat(sprintf("%d calls in %.1f s\n\n", nrow(res),
            proc.time()[["elapsed"]] - t0))
print(table(res$outcome))
cat("\nerrors naming the fuzzed argument itself:",
    sum(res$names_arg), "\n\nfailures (costbo_unnamed, wrong_call, internal, hang) by function:\n")
bad <- res[!res$outcome %in% c("returned", "costbo_named"), ]
if (nrow(bad)) print(table(bad$fun, bad$outcome))
cat("\ndistinct failure messages:\n")
u <- unique(bad[, c("fun", "arg", "outcome", "message")])
u <- u[!duplicated(paste(u$fun, u$message)), ]
for (i in seq_len(nrow(u))) cat(sprintf("%s(%s) [%s]: %s\n", u$fun[i], u$arg[i],
                                        u$outcome[i], u$message[i]))
if (length(args)) saveRDS(res, args[1L])
