# The random-number generator's state: saved and restored around work
# that must leave the caller's stream as it was.

# The generator's kind and state, and their restoration (removing a state
# that did not exist before).
save_rng <- function() {
  genv <- globalenv()
  had <- exists(".Random.seed", envir = genv, inherits = FALSE)
  list(kind = RNGkind(), had = had,
       seed = if (had) get(".Random.seed", envir = genv))
}

restore_rng <- function(saved) {
  genv <- globalenv()
  do.call(RNGkind, as.list(saved$kind))
  if (saved$had) {
    assign(".Random.seed", saved$seed, envir = genv)
  } else if (exists(".Random.seed", envir = genv, inherits = FALSE)) {
    rm(".Random.seed", envir = genv)
  }
}

# Evaluate expr with the RNG seeded, restoring the caller's RNG state.
with_seed <- function(seed, expr) {
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had) old <- get(".Random.seed", envir = globalenv())
  on.exit(if (had) assign(".Random.seed", old, envir = globalenv()) else
    rm(".Random.seed", envir = globalenv()))
  set.seed(seed)
  expr
}
