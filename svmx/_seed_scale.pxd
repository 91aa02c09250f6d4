# The scale of a warm start along C (svmx/_seed_scale.pyx), for svmx._seeded_problem.
cpdef double best_scale(double objective, double linear, double limit)
cpdef double seed_scale(double objective, double linear, double limit,
                        double bounded_share)
