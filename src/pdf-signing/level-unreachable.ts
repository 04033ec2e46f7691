/**
 * The signature cannot reach the PAdES level asked for because a service outside (a timestamp
 * authority, a revocation responder) did not answer as it must. The seal then waits and is tried
 * again: a final file at a lower level than the organization chose would be a silent downgrade.
 */
export class LevelUnreachable extends Error {}
