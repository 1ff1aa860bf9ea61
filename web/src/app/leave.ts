// A page with unsaved changes registers a question here; Studio's links and in-app navigation ask it first.
let question: string | null = null;

export function setLeaveQuestion(q: string | null): void {
  question = q;
}

// mayLeave asks the user to confirm leaving when a page holds unsaved changes.
export function mayLeave(): boolean {
  if (question === null) return true;
  if (window.confirm(question)) {
    question = null;
    return true;
  }
  return false;
}
