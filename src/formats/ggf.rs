//! GGF, the Generic Game Format of the GGS server.
