# The loop's overhead with budget_rule = "feasible" against "stop".
#
# Run from the repository root after installing costbo:
#   R_LIBS=<library> Rscript bench/budget-rule.R             one build
#   Rscript bench/budget-rule.R <library A> <library B> ...  builds compared
# Every run is made in its own R process, with the build of R_LIBS or, given
# libraries, with each library in turn (run by run, so that the load of a
# shared machine falls on the builds alike). Prints the tables and writes
# them to bench/results-budget-rule.txt (BENCH_OUT=file: to that file).
# BENCH_QUICK=1: 50 evaluations only. About 40 minutes per build on a
# shared machine.
#
# Jobs (policy EI-PU-CC, seed 1, the default design and settings):
#   forest    a random forest (ranger, one thread) tuned on a typed space
#             (trees: integer on a log scale, mtry: integer, min.node.size:
#             integer on a log scale, sample.fraction: number on a log
#             scale, splitrule: categorical) on the Pima data (MASS), its
#             Brier score on a fixed half of the data; the cost is the
#             measured seconds of training. Skipped without ranger.
#   forest known  the same forests with a known cost, a function of the
#             typed point (0.002 + 2e-4 trees x sample.fraction): the
#             costliest case of the rule, which prices every candidate by a
#             call of the cost.
#   f4 known  a cheap function of 4 inputs in [0, 1]^4 with the known cost
#             1 + 3 x1.
#   f4 meas.  the same function, its cost (the same formula) measured:
#             reported by the objective, modelled by the log-cost GP.
#
# Measures, per run, in CPU seconds of the run's R process (user + system:
# the machine is shared, and waiting for a core inflates wall times, those
# of fits and policies as much as the rule's), of the whole bo_optimize()
# call (the initial design and the checks before it included), of 5, 3
# and 1 repetitions at 50, 200 and 400 evaluations the one of least
# overhead:
#   overhead  (total - objective) / evaluations: everything but paying for
#             the evaluations (the objective's CPU time is counted around
#             each call of it): model fits, policy, budget rule,
#             bookkeeping;
#   loop      (total - objective - proposals) / evaluations, the proposals
#             the CPU time inside state_propose() (the models' fits and
#             the policy): the loop's own time, the budget rule's
#             included (at 400 evaluations the GP fits dominate the
#             overhead);
#   rule      the CPU time inside budget_apply_rule() (the rule: the check
#             of the proposal and, when it does not fit, the choice among
#             what fits) per evaluation, counted alike in every build (a
#             build that records it has it in the column rule_time, in
#             wall seconds).
# Table 1, "large budget": max_evaluations = 50, 200, 400 and a budget of
# 1e9, as the rule runs at every step of a long run whose proposals fit
# (it only checks them). Table 2, "budget ends the run": the budget is
# what the "stop" run of table 1 spent on the same job and size, so both
# runs end by the budget near that many evaluations, and "feasible" keeps
# choosing what fits when the proposals stop fitting (`chosen`: how many
# evaluations the rule chose; the forests' measured times differ from run
# to run, and so do those runs). The ratios are feasible / stop, target at
# most 1.3 for the overhead. Table 3: the CPU seconds of one choice of the
# rule when the proposal does not fit (budget_feasible_proposal() on the
# state after 50 evaluations of table 1's "stop" run, with a remaining
# budget the costs seen below their 30% quantile fit in), the mean of 5.
# The wall seconds of every run are in the last table.

args <- commandArgs(TRUE)

# --- the jobs ------------------------------------------------------------------

bench_f4 <- function(x) {
  -sum((x - 0.3)^2) + 0.1 * prod(cos(8 * x))
}

# CPU seconds of this process, and the CPU seconds counted so far inside
# the objective, state_propose() and budget_apply_rule().
.bench_cpu <- function() {
  t <- proc.time()
  t[["user.self"]] + t[["sys.self"]]
}
.bench_acc <- new.env()
bench_reset <- function() {
  for (k in c("objective", "propose", "rule")) assign(k, 0, .bench_acc)
}
bench_reset()

# The objective f, its CPU time counted.
bench_counted <- function(f) {
  force(f)
  function(x) {
    t0 <- .bench_cpu()
    on.exit(.bench_acc$objective <- .bench_acc$objective + .bench_cpu() - t0)
    f(x)
  }
}

bench_job <- function(job, budget) {
  switch(job,
    forest = , forest_known = {
      d <- rbind(MASS::Pima.tr, MASS::Pima.te)
      set.seed(20)
      half <- sample(rep(c(TRUE, FALSE), length.out = nrow(d)))
      train <- d[half, ]
      test <- d[!half, ]
      y <- as.numeric(test$type == "Yes")
      sp <- bo_space(num_trees = param_int(10, 1000, log = TRUE),
                     mtry = param_int(1, 7),
                     min_node = param_int(1, 64, log = TRUE),
                     sample_fraction = param_num(0.1, 1, log = TRUE),
                     splitrule = param_cat(c("gini", "extratrees",
                                             "hellinger")))
      # (a first forest, so that loading ranger is no evaluation's cost)
      invisible(ranger::ranger(type ~ ., data = train, num.trees = 10,
                               num.threads = 1, seed = 1))
      if (job == "forest_known") {
        return(bo_problem(bench_counted(function(p) {
          fit <- ranger::ranger(type ~ ., data = train,
                                num.trees = p$num_trees, mtry = p$mtry,
                                min.node.size = p$min_node,
                                sample.fraction = p$sample_fraction,
                                splitrule = p$splitrule, probability = TRUE,
                                num.threads = 1, seed = 1)
          pr <- predict(fit, test, num.threads = 1)$predictions[, "Yes"]
          mean((pr - y)^2)
        }), space = sp, cost = function(p) {
          0.002 + 2e-4 * p$num_trees * p$sample_fraction
        }, budget = budget, maximize = FALSE, name = "forest, known cost"))
      }
      bo_problem(bench_counted(function(p) {
        t0 <- proc.time()[["elapsed"]]
        fit <- ranger::ranger(type ~ ., data = train,
                              num.trees = p$num_trees, mtry = p$mtry,
                              min.node.size = p$min_node,
                              sample.fraction = p$sample_fraction,
                              splitrule = p$splitrule, probability = TRUE,
                              num.threads = 1, seed = 1)
        secs <- proc.time()[["elapsed"]] - t0
        pr <- predict(fit, test, num.threads = 1)$predictions[, "Yes"]
        list(value = mean((pr - y)^2), cost = max(secs, 1e-3))
      }), space = sp, budget = budget, maximize = FALSE, name = "forest")
    },
    f4_known = bo_problem(bench_counted(bench_f4), rep(0, 4), rep(1, 4),
                          cost = function(x) 1 + 3 * x[1], budget = budget,
                          name = "f4 known"),
    f4_measured = bo_problem(bench_counted(function(x) {
      list(value = bench_f4(x), cost = 1 + 3 * x[1])
    }), rep(0, 4), rep(1, 4), budget = budget, name = "f4 measured"))
}

# --- a worker: one run (or the rule's decisions) with the installed build -------

if (length(args) && args[1] == "worker") {
  suppressPackageStartupMessages(library(costbo))
  job <- args[2]
  n <- as.integer(args[3])
  rule <- args[4]
  budget <- as.numeric(args[5])
  cap <- as.integer(args[6])
  if (job == "build") {
    b <- costbo_build()
    cat("RESULT", substr(b$source_hash, 1, 8), format(packageVersion("costbo")),
        "\n")
    quit(save = "no")
  }
  pr <- bench_job(job, budget)
  ns <- asNamespace("costbo")
  # CPU time inside state_propose() and budget_apply_rule()
  traced <- c(propose = "state_propose", rule = "budget_apply_rule")
  for (k in names(traced)) {
    suppressMessages(trace(traced[[k]], where = ns, print = FALSE,
      tracer = bquote(.bench_t0 <- .bench_cpu()),
      exit = bquote(.bench_acc[[.(k)]] <- .bench_acc[[.(k)]] +
                      .bench_cpu() - .bench_t0)))
  }
  if (rule == "decision") {
    run <- bo_optimize(pr, policy_ei_pu_cc(), max_evaluations = n, seed = 1,
                       progress = FALSE, budget_rule = "stop")
    st <- unclass(run)
    st$stop_reason <- NULL
    st$stop_code <- NULL
    st$budget_rule <- "feasible"
    set.seed(2)
    p <- ns$state_propose(st)
    st <- p$state
    # the replacement of the proposal with a remaining budget that the
    # costs seen below their 30% quantile fit in
    remaining <- unname(stats::quantile(st$cost, 0.3))
    reps <- 5L
    set.seed(3)
    t0 <- .bench_cpu()
    for (i in seq_len(reps)) {
      alt <- ns$budget_feasible_proposal(st, p, remaining)
    }
    cat("RESULT", (.bench_cpu() - t0) / reps, !alt$none, "\n")
    quit(save = "no")
  }
  # the repetition of least overhead (a known cost repeats the same run; a
  # measured time gives each repetition its own)
  best <- NULL
  for (r in seq_len(as.integer(args[7]))) {
    bench_reset()
    c0 <- .bench_cpu()
    t <- system.time(run <- bo_optimize(pr, policy_ei_pu_cc(),
                                        max_evaluations = cap, seed = 1,
                                        progress = FALSE,
                                        budget_rule = rule))[["elapsed"]]
    cpu <- .bench_cpu() - c0
    df <- as.data.frame(run)
    sum0 <- function(v) sum(v, na.rm = TRUE)
    chosen <- if (is.null(df$budget_feasible)) 0 else sum0(df$budget_feasible)
    v <- list(evaluations = nrow(df), wall = t, cpu = cpu,
              objective = .bench_acc$objective,
              propose = .bench_acc$propose, rule = .bench_acc$rule,
              eval_time = sum0(df$eval_time), chosen = chosen,
              spent = run$spent, stop = run$stop_code)
    if (is.null(best) || v$cpu - v$objective < best$cpu - best$objective) {
      best <- v
    }
  }
  cat("RESULT", vapply(best, function(x) {
    if (is.numeric(x)) format(x, digits = 15) else x
  }, ""), "\n")
  quit(save = "no")
}

# --- the driver -------------------------------------------------------------------

source("bench/common.R")
self <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(FALSE),
                                              value = TRUE)))
libs <- args
quick <- nzchar(Sys.getenv("BENCH_QUICK")) && Sys.getenv("BENCH_QUICK") != "0"
sizes <- if (quick) 50L else c(50L, 200L, 400L)
have_ranger <- requireNamespace("ranger", quietly = TRUE) &&
  requireNamespace("MASS", quietly = TRUE)
jobs <- c(if (have_ranger) c("forest", "forest_known"), "f4_known",
          "f4_measured")
builds <- if (length(libs)) libs else ""
build_label <- function(lib) {
  if (!nzchar(lib)) return("R_LIBS build")
  basename(lib)
}
started <- Sys.time()
load0 <- tryCatch(readLines("/proc/loadavg")[1], error = function(e) NA)

# repetitions of a run: the least overhead of them counts
reps_of <- function(n) if (n <= 50L) 5L else if (n <= 200L) 3L else 1L

worker <- function(lib, job, n, rule, budget, cap = n) {
  env <- if (nzchar(lib)) paste0("R_LIBS=", lib) else character()
  out <- suppressWarnings(system2(
    "Rscript", c(self, "worker", job, n, rule, format(budget, digits = 17),
                 cap, reps_of(n)), env = env, stdout = TRUE,
    stderr = FALSE))
  line <- grep("^RESULT", out, value = TRUE)
  if (!length(line)) stop(sprintf("worker %s %s %d %s failed", lib, job, n, rule))
  strsplit(trimws(sub("^RESULT", "", line[length(line)])), " +")[[1]]
}

run_row <- function(lib, job, n, rule, budget, cap, table) {
  v <- worker(lib, job, n, rule, budget, cap)
  num <- suppressWarnings(as.numeric(v[1:9]))
  evals <- num[1]
  data.frame(table = table, build = build_label(lib), job = job, n = n,
             rule = rule, evaluations = evals, wall = num[2], cpu = num[3],
             objective = num[4], propose = num[5], rule_s = num[6],
             eval_time = num[7], chosen = num[8], spent = num[9],
             stop = v[10],
             overhead = (num[3] - num[4]) / evals,
             loop = (num[3] - num[4] - num[5]) / evals,
             rule_per_eval = num[6] / evals,
             wall_overhead = (num[2] - num[7]) / evals,
             stringsAsFactors = FALSE)
}

rows <- list()
for (job in jobs) for (n in sizes) {
  for (rule in c("stop", "feasible")) for (lib in builds) {
    rows[[length(rows) + 1L]] <- run_row(lib, job, n, rule, 1e9, n, "large")
  }
  # the budget that ends the run: what the "stop" run spent (per build)
  for (rule in c("stop", "feasible")) for (lib in builds) {
    ref <- Filter(function(r) r$table == "large" && r$job == job &&
                    r$n == n && r$rule == "stop" &&
                    r$build == build_label(lib), rows)[[1]]
    rows[[length(rows) + 1L]] <- run_row(lib, job, n, rule, ref$spent,
                                         2L * n, "budget")
  }
}
res <- do.call(rbind, rows)

decisions <- do.call(rbind, lapply(jobs, function(job) {
  do.call(rbind, lapply(builds, function(lib) {
    v <- worker(lib, job, 50L, "decision", 1e9)
    data.frame(job = job, build = build_label(lib),
               cpu_seconds_per_choice = as.numeric(v[1]),
               some_fit = as.logical(v[2]), stringsAsFactors = FALSE)
  }))
}))

# --- the tables -----------------------------------------------------------------

ratio_table <- function(tab) {
  keys <- unique(tab[c("build", "job", "n")])
  do.call(rbind, lapply(seq_len(nrow(keys)), function(i) {
    k <- keys[i, ]
    s <- tab[tab$build == k$build & tab$job == k$job & tab$n == k$n &
               tab$rule == "stop", ]
    f <- tab[tab$build == k$build & tab$job == k$job & tab$n == k$n &
               tab$rule == "feasible", ]
    data.frame(build = k$build, job = k$job, n = k$n,
               evals_stop = s$evaluations, evals_feasible = f$evaluations,
               chosen = f$chosen,
               overhead_stop_ms = 1000 * s$overhead,
               overhead_feasible_ms = 1000 * f$overhead,
               ratio = f$overhead / s$overhead,
               loop_stop_ms = 1000 * s$loop,
               loop_feasible_ms = 1000 * f$loop,
               loop_ratio = f$loop / s$loop,
               rule_ms = 1000 * f$rule_per_eval,
               wall_ratio = f$wall_overhead / s$wall_overhead,
               meets = ifelse(f$overhead / s$overhead <= 1.3, "yes", "NO"),
               stringsAsFactors = FALSE)
  }))
}

fmt <- function(df) {
  for (j in seq_along(df)) {
    if (is.double(df[[j]])) {
      df[[j]] <- ifelse(is.na(df[[j]]), "NA",
                        formatC(df[[j]], digits = 3, format = "g"))
    }
  }
  df
}

op <- options(width = 200)
out <- c(
  "== The loop's overhead with budget_rule = \"feasible\" against \"stop\" (bench/budget-rule.R)",
  sprintf("%s; %s", format(started, "%Y-%m-%d %H:%M %Z"),
          if (length(libs)) paste("builds:", paste(libs, collapse = ", "))
          else paste("build of R_LIBS:", Sys.getenv("R_LIBS"))),
  bench_header(c("ranger"))[-4],
  build_ids,
  sprintf("ranger %s", if (have_ranger) format(packageVersion("ranger")) else
    "(not installed)"),
  sprintf("load average at the start: %s; at the end: %s", load0,
          tryCatch(readLines("/proc/loadavg")[1], error = function(e) NA)),
  if (!have_ranger) "forest: skipped (ranger or MASS not installed)",
  "",
  "CPU ms per evaluation: overhead = (total - objective) / evaluations; loop = (total - objective -",
  "state_propose()) / evaluations; rule = budget_apply_rule() / evaluations; ratio = feasible / stop",
  "(target <= 1.3); wall_ratio: the same ratio of the overheads in wall time (wall - eval_time)",
  "",
  "-- 1. large budget (1e9), max_evaluations = n: the rule checks each proposal, which fits",
  utils::capture.output(print(fmt(ratio_table(res[res$table == "large", ])),
                              row.names = FALSE)),
  "",
  "-- 2. budget ends the run (the budget the \"stop\" run of 1 spent; max_evaluations = 2 n)",
  utils::capture.output(print(fmt(ratio_table(res[res$table == "budget", ])),
                              row.names = FALSE)),
  "",
  "-- 3. one choice of the rule when the proposal does not fit (budget_feasible_proposal(), CPU seconds, mean of 5)",
  utils::capture.output(print(fmt(decisions), row.names = FALSE)),
  "",
  "-- the runs (seconds: wall and eval_time elapsed, the others CPU)",
  utils::capture.output(print(fmt(res[c("table", "build", "job", "n", "rule",
                                         "evaluations", "wall", "eval_time",
                                         "cpu", "objective", "propose",
                                         "rule_s", "chosen", "spent",
                                         "stop")]),
                              row.names = FALSE)),
  "",
  sprintf("[budget-rule: %.1f min]", as.numeric(difftime(Sys.time(), started,
                                                          units = "mins"))))
options(op)
cat(out, sep = "\n")
out_file <- Sys.getenv("BENCH_OUT")
if (!nzchar(out_file)) out_file <- "bench/results-budget-rule.txt"
writeLines(out, out_file)
