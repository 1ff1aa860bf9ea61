// Who is touching a Workflow instance in the engine (docs/edge.md, "Finished instances are archived"; decision 481).
// miniflare opens (creates) an engine Durable Object and its SQLite database for ANY instance id it is asked about,
// and keeps it open for good: a status read, an event or a list page that reaches the engine for an instance the
// archive deleted (or is deleting) re-creates that instance's database in workerd, where it stays open. So the
// runtime counts the engine calls under way per instance and per Workflow's list, and the archive deletes an
// instance only once nothing else uses it; lists of a Workflow (which open every instance file on disk) and
// deletes of its instances never overlap; and ids the archive holds are left out of status reads and revive nudges.

// EngineUse tracks the engine calls under way.
export class EngineUse {
  constructor() {
    this.uses = new Map(); // "<workflow>\n<id>" -> calls under way
    this.lists = new Map(); // workflow -> list calls under way
    this.deletes = new Map(); // workflow -> deletes under way
    this.listsWaiting = new Map(); // workflow -> lists waiting for deletes to end (deletes then wait for them)
    this.waiters = [];
    // a backup's copy holds deletes (freeze/thaw); deleteCalls counts the delete calls to the engine under way
    this.frozen = 0;
    this.deleteCalls = 0;
    // gone(workflow, id) reports whether the instance is archived (its engine copy deleted or about to be): set by
    // the gateway from the index
    this.gone = () => false;
  }

  #wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  async #until(ok) {
    while (!ok()) await new Promise((resolve) => this.waiters.push(resolve));
  }

  // keep filters the ids the engine may be asked about (not archived) and marks them in use; release(ids) ends it.
  keep(workflow, ids) {
    const kept = ids.filter((id) => !this.gone(workflow, id));
    for (const id of kept) {
      const k = `${workflow}\n${id}`;
      this.uses.set(k, (this.uses.get(k) ?? 0) + 1);
    }
    return kept;
  }

  release(workflow, ids) {
    for (const id of ids) {
      const k = `${workflow}\n${id}`;
      const n = (this.uses.get(k) ?? 1) - 1;
      if (n <= 0) this.uses.delete(k);
      else this.uses.set(k, n);
    }
    this.#wake();
  }

  // list runs fn, a list of workflow's instances, once no delete of its instances is under way.
  async list(workflow, fn) {
    this.listsWaiting.set(workflow, (this.listsWaiting.get(workflow) ?? 0) + 1);
    await this.#until(() => !this.deletes.get(workflow));
    this.listsWaiting.set(workflow, this.listsWaiting.get(workflow) - 1);
    this.lists.set(workflow, (this.lists.get(workflow) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      this.lists.set(workflow, this.lists.get(workflow) - 1);
      this.#wake();
    }
  }

  // deleting runs fn, a delete of instance id, once no other call uses it and no list of workflow is under way.
  async deleting(workflow, id, fn) {
    await this.#until(
      () =>
        !this.frozen &&
        !this.uses.get(`${workflow}\n${id}`) &&
        !this.lists.get(workflow) &&
        !this.listsWaiting.get(workflow),
    );
    this.deletes.set(workflow, (this.deletes.get(workflow) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      this.deletes.set(workflow, this.deletes.get(workflow) - 1);
      this.#wake();
    }
  }

  // deleteCall runs fn, a delete call to the engine (/wf/delete), once no backup holds deletes.
  async deleteCall(fn) {
    await this.#until(() => !this.frozen);
    this.deleteCalls++;
    try {
      return await fn();
    } finally {
      this.deleteCalls--;
      this.#wake();
    }
  }

  // freeze holds new deletes of instances (the archive's and the API's) and answers once the delete calls under way
  // have ended: a backup copies the instance index first and the engines after it, and every instance the copied
  // index names must still have its engine then (backup.mjs). thaw lets the deletes go on.
  async freeze() {
    this.frozen++;
    await this.#until(() => this.deleteCalls === 0);
  }

  thaw() {
    this.frozen--;
    this.#wake();
  }
}
