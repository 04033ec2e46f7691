/** What may be uploaded where: a resource declares the keys it owns and the content types it accepts. */
export interface UploadPolicy {
  matches(key: string): boolean;
  contentTypes: readonly string[];
  /** Throws a DomainError when the resource the key belongs to no longer exists. */
  ensureTarget(key: string): Promise<void>;
  /**
   * Once the bytes are stored: records them on their resource where it keeps track, and answers
   * whether the resource still exists (it may have been deleted meanwhile; then the route removes them).
   */
  claim(key: string): Promise<boolean>;
  /** Runs once the bytes are stored; throws a DomainError to refuse them (it removes them itself). */
  stored?(key: string): Promise<void>;
  /**
   * The file is written once (its hash is recorded when it arrives): of uploads racing to the same
   * URL the first to finish is kept and the others are refused, leaving nothing behind.
   */
  writeOnce?: boolean;
}
