# The R calls of one proposal: every function of costbo's namespace is
# traced (its entry counted, with the file that defines it), then one step
# of a run is proposed: the models fitted and the policy asked
# (state_propose(), the loop's step 1 and 2, as in bo_optimize()), for an
# EI-PU-CC policy and for a CMDP rollout (h = 2, 8 samples) on Branin with
# a linear cost after 6 initial points. Prints, for each: the calls, the
# files, the changes of file along the call sequence, the calls of check_*
# helpers, the .Call()s, and the calls per file. Then the static call
# graph of all of R/, file by file (tests/testthat/helper-architecture.R,
# which tests/testthat/test-architecture.R checks too): its files and uses,
# each file's level (one above the highest file it uses), and its cycles
# (strongly connected components of more than one file) with the uses
# inside them.
#
#   Rscript bench/call-trace.R [lib] [sequence]
#
# With `sequence`, each call sequence is printed too (function(file)).

args <- commandArgs(TRUE)
if (length(args) && nzchar(args[1])) .libPaths(c(args[1], .libPaths()))
suppressMessages(library(costbo))
ns <- asNamespace("costbo")

# the file of each function, from its source references (installed with
# R_KEEP_PKG_SOURCE=yes) or, without them, from the R/ sources next to this
# script
src_dir <- file.path(dirname(sub("^--file=", "", grep("^--file=",
  commandArgs(FALSE), value = TRUE))), "..", "R")
file_of <- local({
  map <- character()
  for (f in list.files(src_dir, "[.]R$", full.names = TRUE)) {
    lines <- readLines(f, warn = FALSE)
    m <- regmatches(lines, regexpr("^[A-Za-z_.][A-Za-z0-9_.]* *<- *function",
                                   lines))
    nm <- sub(" *<- *function$", "", m)
    map[nm] <- basename(f)
  }
  map
})

trace_proposal <- function(state) {
  log <- character()
  funs <- Filter(function(nm) is.function(get(nm, envir = ns)),
                 ls(ns, all.names = TRUE))
  funs <- intersect(funs, names(file_of))
  for (nm in funs) {
    suppressMessages(trace(nm, bquote(assign("log", c(get("log", .(environment())),
                                                  .(nm)), .(environment()))),
                           print = FALSE, where = ns))
  }
  on.exit(for (nm in funs) suppressMessages(untrace(nm, where = ns)))
  set.seed(1)
  invisible(costbo:::state_propose(state))
  log
}

# Files that call each other among the functions of a proposal: an edge
# A -> B when a function of file A traced in the proposal names a function
# of file B also traced (statically, from its body); a back-edge is a pair
# of files with edges both ways.
back_edges <- function(log) {
  fns <- unique(log)
  edges <- character()
  for (f in fns) {
    body_names <- all.names(body(get(f, envir = ns)))
    for (g in intersect(body_names, fns)) {
      a <- file_of[[f]]
      b <- file_of[[g]]
      if (!identical(a, b)) edges <- c(edges, paste(a, b, sep = " -> "))
    }
  }
  edges <- unique(edges)
  back <- character()
  for (e in edges) {
    ab <- strsplit(e, " -> ", fixed = TRUE)[[1]]
    if (paste(ab[2], ab[1], sep = " -> ") %in% edges && ab[1] < ab[2]) {
      back <- c(back, paste(ab[1], "<->", ab[2]))
    }
  }
  back
}

report <- function(label, log) {
  files <- file_of[log]
  changes <- sum(files[-1] != files[-length(files)])
  cat(sprintf("%s: %d calls across %d files, %d changes of file, %d check_* calls, %d .Call()s\n",
              label, length(log), length(unique(files)), changes,
              sum(grepl("^check_", log)), sum(log == "call_c")))
  tab <- sort(table(files), decreasing = TRUE)
  cat("  by file:", paste(sprintf("%s %d", names(tab), tab), collapse = ", "),
      "\n")
  be <- back_edges(log)
  cat("  files calling each other:",
      if (length(be)) paste(be, collapse = ", ") else "none", "\n")
  top <- sort(table(log), decreasing = TRUE)
  cat("  most called:", paste(sprintf("%s %d", names(top)[1:min(12, length(top))],
                                      top[1:min(12, length(top))]),
                              collapse = ", "), "\n")
}

prob <- test_problem("branin", cost_family = "linear", budget = 50)
init <- function(pol) {
  run <- bo_optimize(prob, pol, n_init = 6, seed = 1, max_evaluations = 0,
                     progress = FALSE)
  df <- as.data.frame(run)[, c("x1", "x2", "value")]
  costbo:::state_fit(bo_session(prob, pol, initial = df))
}
for (case in list(list("EI-PU-CC", policy_ei_pu_cc()),
                  list("CMDP rollout (h = 2)", policy_rollout(2, n_samples = 8)))) {
  st <- init(case[[2]])
  log <- trace_proposal(st)
  report(case[[1]], log)
  if (length(args) > 1 && args[2] == "sequence") {
    cat(strwrap(paste(sprintf("%s(%s)", log, sub("[.]R$", "", file_of[log])),
                      collapse = " > "), 100), sep = "\n")
  }
}

# The static call graph of R/: no file may use, directly or not, a file
# that uses it.
if (requireNamespace("codetools", quietly = TRUE)) {
  source(file.path(src_dir, "..", "tests", "testthat", "helper-architecture.R"))
  arch <- arch_check(src_dir)
  g <- arch$graph
  cat(sprintf("\nstatic call graph of R/: %d files, %d definitions, %d uses between files\n",
              length(unique(arch$definitions$file)), nrow(arch$definitions),
              nrow(unique(g[c("from", "to")]))))
  cat(sprintf("  cycles: %d%s\n", length(arch$cycles),
              if (length(arch$cycles)) sprintf(" (of %s files)",
                paste(lengths(arch$cycles), collapse = ", ")) else ""))
  lv <- arch_levels(unique(arch$definitions$file), g$from, g$to)
  cat("  levels (a file uses only files of lower levels; NA: in or above a cycle):\n")
  for (l in sort(unique(lv), na.last = TRUE)) {
    cat(sprintf("    %2s: %s\n", l, paste(sort(names(lv)[lv %in% l]),
                                          collapse = " ")))
  }
  for (cy in arch$cycles) {
    cat("  files of a cycle:", cy, "\n")
    inside <- g[g$from %in% cy & g$to %in% cy, ]
    for (ft in split(inside, paste(inside$from, inside$to))) {
      cat(sprintf("    %s -> %s: %s\n", ft$from[1], ft$to[1],
                  paste(unique(ft$used), collapse = ", ")))
    }
  }
}
