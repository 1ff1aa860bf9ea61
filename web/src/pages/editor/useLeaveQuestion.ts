// useLeaveQuestion asks before leaving a page with unsaved changes: a link, a project switch or signing out asks
// the question (app/leave.ts), closing or reloading the tab asks the browser's own.
import { useEffect } from "react";
import { setLeaveQuestion } from "../../app/leave";

export function useLeaveQuestion(dirty: boolean, question: string) {
  useEffect(() => {
    if (!dirty) {
      setLeaveQuestion(null);
      return;
    }
    setLeaveQuestion(question);
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      setLeaveQuestion(null);
    };
  }, [dirty, question]);
}
