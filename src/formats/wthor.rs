//! WTHOR, the French federation's binary game database.
