/** A publish that cannot go through for a reason the user can act on (its message is shown as the import's error). */
export class PublishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PublishError";
  }
}
