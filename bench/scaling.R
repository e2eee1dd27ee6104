# Scaling of GP fitting and of one acquisition maximization with n.
#
# Run from the repository root after installing costbo:
#   Rscript bench/scaling.R
# or as part of every benchmark with bench/run.R, which sources this file
# and calls bench_scaling() (it returns the rows of run.R's summary table).
#
# Data: Hartmann-6 (d = 6) at n = 100, 250, 500, 1000, 2000 uniform random
# points on [0, 1]^6, plus Gaussian noise of standard deviation 0.01. Fits:
# the squared-exponential kernel by maximum likelihood with the noise
# estimated, in costbo (gp_fit(kernel = "se", estimate = "ml")), DiceKriging
# (km(covtype = "gauss", nugget.estim = TRUE)), hetGP (mleHomGP(covtype =
# "Gaussian")) and laGP (mleGPsep(param = "both"), on centred outputs),
# wall seconds, the smallest of two runs below n = 500 and one run from
# there on. A peer is skipped (NA) at a size where its time, extrapolated as
# n^3 from the previous size, would exceed 60 s. Install the peers with
# install.packages(c("DiceKriging", "hetGP", "laGP", "DiceOptim")).
#
# Acquisition: one acq_maximize() of EI and of EI-PU with a GP on log cost
# (fixed hyperparameters, so only its conditioning on the n points counts)
# on costbo's fit, CPU seconds; EI is compared with DiceOptim::max_EI()
# (default settings) on the DiceKriging fit when both are there.
#
# Memory: gc(reset = TRUE) before costbo's fit at the largest n, then gc():
# the "max used" Vcells (MB) during the fit, against the n x n matrix of
# doubles.
#
# BENCH_QUICK=1: n up to 500.

source("bench/common.R")
suppressPackageStartupMessages(library(costbo))

scaling_data <- function(n, seed = 20240601L) {
  set.seed(seed + n)
  X <- matrix(runif(6 * n), n, 6)
  list(X = X, y = -hartmann6_min(X) + rnorm(n, sd = 0.01))
}

# Wall seconds of f(), the smallest of `reps` runs, and f()'s value.
wall_time <- function(f, reps) {
  best <- Inf
  for (r in seq_len(reps)) {
    gc()
    t0 <- proc.time()[["elapsed"]]
    val <- f()
    best <- min(best, proc.time()[["elapsed"]] - t0)
  }
  list(time = best, value = val)
}

scaling_fitters <- list(
  costbo = function(D) {
    set.seed(1)
    gp_fit(D$X, D$y, kernel = "se", estimate = "ml", lower = rep(0, 6),
           upper = rep(1, 6))
  },
  DiceKriging = function(D) {
    set.seed(1)
    DiceKriging::km(design = D$X, response = D$y, covtype = "gauss",
                    nugget.estim = TRUE, control = list(trace = FALSE))
  },
  hetGP = function(D) {
    set.seed(1)
    hetGP::mleHomGP(D$X, D$y, covtype = "Gaussian")
  },
  laGP = function(D) {
    da <- laGP::darg(NULL, D$X)
    ga <- laGP::garg(list(mle = TRUE), D$y - mean(D$y))
    gi <- laGP::newGPsep(D$X, D$y - mean(D$y), d = da$start, g = ga$start,
                         dK = TRUE)
    o <- laGP::jmleGPsep(gi, drange = c(da$min, da$max),
                         grange = c(ga$min, ga$max), dab = c(0, 0),
                         gab = c(0, 0))
    laGP::deleteGPsep(gi)
    o
  })

bench_scaling <- function(quick = FALSE) {
  out <- list()
  add <- function(...) out[[length(out) + 1L]] <<- bench_row("scaling", ...)
  peers <- c("DiceKriging", "hetGP", "laGP")
  have <- bench_have(c(peers, "DiceOptim"))
  cat("== Scaling with n (Hartmann-6 + noise, d = 6)\n")
  cat(paste(bench_header(c(peers, "DiceOptim")), collapse = "\n"), "\n\n")
  sizes <- if (quick) c(100L, 250L, 500L) else c(100L, 250L, 500L, 1000L, 2000L)
  prev <- c(DiceKriging = NA, hetGP = NA, laGP = NA)
  prev_n <- NA
  fit_rows <- list()
  acq_rows <- list()
  mem <- NULL
  for (n in sizes) {
    D <- scaling_data(n)
    reps <- if (n < 500L) 2L else 1L
    big <- n == max(sizes)
    if (big) {
      gc0 <- gc(reset = TRUE)
    }
    cb <- wall_time(function() scaling_fitters$costbo(D), reps)
    if (big) {
      gc1 <- gc()
      vc <- which(rownames(gc1) == "Vcells")
      mb_col <- which(colnames(gc1) == "max used") + 1L  # its (Mb) column
      mem <- c(before = gc0[vc, 2L], max_used = gc1[vc, mb_col],
               nxn = 8 * n^2 / 2^20)
    }
    times <- c(costbo = cb$time)
    notes <- c(costbo = sprintf("loglik %.1f", as.numeric(logLik(cb$value))))
    km_fit <- NULL
    for (p in peers) {
      if (!have[[p]]) {
        times[p] <- NA
        notes[p] <- sprintf("%s not installed", p)
        next
      }
      pred <- if (is.na(prev[[p]])) 0 else prev[[p]] * (n / prev_n)^3
      if (pred > 60) {
        times[p] <- NA
        notes[p] <- sprintf("skipped: predicted %.0f s > 60 s", pred)
        prev[p] <- Inf
        next
      }
      r <- wall_time(function() scaling_fitters[[p]](D), reps)
      times[p] <- r$time
      prev[p] <- r$time
      notes[p] <- ""
      if (p == "DiceKriging") km_fit <- r$value
    }
    prev_n <- n
    fit_rows[[length(fit_rows) + 1L]] <- data.frame(
      n = n, t(times), check.names = FALSE)
    for (p in peers) {
      add(sprintf("SE ML fit (noise estimated), n = %d, d = 6", n),
          times[["costbo"]], p, times[[p]], note = notes[[p]])
    }

    # one maximization of EI and of EI-PU with a GP on log cost
    fit <- cb$value
    lc <- log(1 + 4 * D$X[, 1] + rowMeans(D$X^2))
    cost_gp <- gp_fit(D$X, lc, kernel = "se", estimate = "fixed",
                      lengthscale = rep(0.5, 6), outputscale = var(lc),
                      noise = 1e-4, lower = rep(0, 6), upper = rep(1, 6))
    set.seed(3)
    t_ei <- cpu_time(acq_maximize(fit, "ei"), reps + 1L)
    set.seed(3)
    t_eipu <- cpu_time(acq_maximize(fit, "ei_pu", cost_model = cost_gp),
                       reps + 1L)
    t_peer <- NA_real_
    note <- if (!have[["DiceOptim"]]) "DiceOptim not installed" else
      if (is.null(km_fit)) "no DiceKriging fit at this n" else
        "peer: default settings, on the DiceKriging fit"
    if (have[["DiceOptim"]] && !is.null(km_fit)) {
      set.seed(5)
      t_peer <- cpu_time(suppressWarnings(DiceOptim::max_EI(
        km_fit, plugin = max(D$y), lower = rep(0, 6), upper = rep(1, 6),
        minimization = FALSE, control = list(print.level = 0))), 1L)
    }
    acq_rows[[length(acq_rows) + 1L]] <- data.frame(
      n = n, ei_s = t_ei, ei_pu_gp_cost_s = t_eipu, DiceOptim_max_EI_s = t_peer)
    add(sprintf("maximize EI, n = %d, d = 6", n), t_ei, "DiceOptim::max_EI",
        t_peer, note = note)
    add(sprintf("maximize EI-PU (GP cost), n = %d, d = 6", n), t_eipu)
  }
  ft <- do.call(rbind, fit_rows)
  cat("Fit time (wall seconds; NA: skipped or not installed)\n")
  print(ft, digits = 3, row.names = FALSE)
  cat("\nOne acquisition maximization on costbo's fit (CPU seconds)\n")
  print(do.call(rbind, acq_rows), digits = 3, row.names = FALSE)
  n <- max(sizes)
  cat(sprintf(paste0(
    "\nMemory of costbo's fit at n = %d: Vcells in use before %.1f MB, ",
    "max used during the fit %.1f MB\n  (%.1f MB above the start, %.1f ",
    "n x n matrices of %.1f MB)\n\n"), n, mem[["before"]],
    mem[["max_used"]], mem[["max_used"]] - mem[["before"]],
    (mem[["max_used"]] - mem[["before"]]) / mem[["nxn"]], mem[["nxn"]]))
  add(sprintf("peak R heap (gc Vcells) of the costbo fit, n = %d", n),
      NA_real_, target = "<= 8 n x n matrices",
      meets_target = (mem[["max_used"]] - mem[["before"]]) / mem[["nxn"]] <= 8,
      note = sprintf("%.0f MB above %.0f MB = %.1f n x n matrices",
                     mem[["max_used"]] - mem[["before"]], mem[["before"]],
                     (mem[["max_used"]] - mem[["before"]]) / mem[["nxn"]]))
  invisible(do.call(rbind, out))
}

if (sys.nframe() == 0L) {
  invisible(bench_scaling(quick = nzchar(Sys.getenv("BENCH_QUICK"))))
}
