## Helpers shared by the benchmark scripts in bench/: the common row format
## of bench/run.R's table, the environment header, peer checks and the test
## functions.  Sourced by every script (run them from the repository root).

## One row of the summary table.  `ratio` is peer_s / costbo_s: above 1,
## costbo is faster.  `target` says what is required in words,
## `meets_target` whether the measurement meets it (NA: no target), `note`
## anything else worth knowing (settings, a quality measure, why a value is
## NA).
bench_row <- function(benchmark, case, costbo_s, peer = NA_character_,
                      peer_s = NA_real_, target = "", meets_target = NA,
                      note = "") {
  data.frame(benchmark = benchmark, case = case,
             costbo_s = as.numeric(costbo_s), peer = as.character(peer),
             peer_s = as.numeric(peer_s),
             ratio = as.numeric(peer_s) / as.numeric(costbo_s),
             target = target, meets_target = as.logical(meets_target),
             note = note, stringsAsFactors = FALSE)
}

## The table formatted for printing: times and ratios to 3 significant
## digits, NA shown as "NA", long notes left as they are.
bench_format <- function(tab) {
  num <- function(v) ifelse(is.na(v), "NA", formatC(v, digits = 3, format = "g"))
  data.frame(benchmark = tab$benchmark, case = tab$case,
             costbo_s = num(tab$costbo_s),
             peer = ifelse(is.na(tab$peer), "-", tab$peer),
             peer_s = num(tab$peer_s), ratio = num(tab$ratio),
             target = tab$target,
             meets = ifelse(is.na(tab$meets_target), "-",
                            ifelse(tab$meets_target, "yes", "NO")),
             note = tab$note, stringsAsFactors = FALSE)
}

## Lines describing the machine: R, BLAS, LAPACK, cores and package versions.
bench_header <- function(peers = character()) {
  blas <- extSoftVersion()[["BLAS"]]
  ver <- function(p) {
    if (requireNamespace(p, quietly = TRUE)) {
      paste(p, format(utils::packageVersion(p)))
    } else paste(p, "(not installed)")
  }
  c(sprintf("%s on %s, %d cores", R.version.string, R.version$platform,
            parallel::detectCores()),
    sprintf("BLAS:   %s%s", if (nzchar(blas)) blas else "R's internal BLAS",
            if (grepl("/blas/libblas|libRblas", blas) || !nzchar(blas))
              " (the reference BLAS)" else ""),
    sprintf("LAPACK: %s (%s)", La_library(), La_version()),
    sprintf("packages: %s", paste(vapply(c("costbo", peers), ver, ""),
                                  collapse = ", ")))
}

## Which of the peer packages can be loaded, as a named logical.
bench_have <- function(peers) {
  vapply(peers, requireNamespace, logical(1), quietly = TRUE)
}

## Smallest CPU time (user + system of this process) of `reps` evaluations
## of expr: other work on a shared machine disturbs it less than wall time.
cpu_time <- function(expr, reps = 3L) {
  expr <- substitute(expr)
  env <- parent.frame()
  best <- Inf
  for (r in seq_len(reps)) {
    t <- system.time(eval(expr, env))
    best <- min(best, t[["user.self"]] + t[["sys.self"]])
  }
  best
}

## Hartmann-6 as usually written (to be minimized), at the rows of X.
hartmann6_min <- function(X) {
  a <- c(1.0, 1.2, 3.0, 3.2)
  A <- rbind(c(10, 3, 17, 3.5, 1.7, 8), c(0.05, 10, 17, 0.1, 8, 14),
             c(3, 3.5, 1.7, 10, 17, 8), c(17, 8, 0.05, 10, 0.1, 14))
  P <- 1e-4 * rbind(c(1312, 1696, 5569, 124, 8283, 5886),
                    c(2329, 4135, 8307, 3736, 1004, 9991),
                    c(2348, 1451, 3522, 2883, 3047, 6650),
                    c(4047, 8828, 8732, 5743, 1091, 381))
  s <- 0
  for (i in 1:4) {
    s <- s + a[i] * exp(-colSums(A[i, ] * (t(X) - P[i, ])^2))
  }
  -s
}

## The fixed states of paper 004's fixed-horizon benchmarks
## (bench/rollout-decisions.R, bench/rollout-screen.R): the 9-point minimax
## design of problem `pr` for state `s` (seed 1000 + s), evaluated, as the
## `initial` data of bo_session().
rollout_fixed_state <- function(pr, s) {
  set.seed(1000L + s)
  U <- minimax_points(9L, pr$d, restarts = 2L)
  X <- sweep(sweep(U, 2L, pr$upper - pr$lower, "*"), 2L, pr$lower, "+")
  init <- data.frame(X, value = apply(X, 1L, pr$objective))
  names(init)[seq_len(pr$d)] <- paste0("x", seq_len(pr$d))
  init
}

## The fixed states of the CMDP rollout benchmarks (bench/cmdp-speed.R,
## bench/cmdp-samples.R): `n` uniform random points (seed s) of test
## problem `name` in dimension d -- "levy" with its known linear cost
## (paper 002's family), "ackley" with its measured cosine cost (paper
## 000's; seed s draws the cost) -- evaluated, as list(problem, initial)
## for bo_session().
cmdp_fixed_state <- function(name, d, s, n = 20L) {
  pr <- test_problem(name, d = d, seed = s)
  set.seed(s)
  U <- matrix(stats::runif(n * d), n)
  X <- sweep(sweep(U, 2L, pr$upper - pr$lower, "*"), 2L, pr$lower, "+")
  ev <- lapply(seq_len(n), function(i) pr$objective(X[i, ]))
  init <- data.frame(X, value = vapply(ev, function(e) {
    if (is.list(e)) e$value else e
  }, 0))
  names(init)[seq_len(d)] <- paste0("x", seq_len(d))
  if (is.list(ev[[1L]])) init$cost <- vapply(ev, function(e) e$cost, 0)
  list(problem = pr, initial = init)
}
