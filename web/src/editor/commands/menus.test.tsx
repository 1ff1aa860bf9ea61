// The context menu and the command palette run the editor's actions through the command manager.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEditorStore, EditorStoreContext } from "../store";
import { editorActions } from ".";
import { CommandPalette } from "./CommandPalette";
import { ContextMenu } from "./ContextMenu";
import { createCommandManager } from "./manager";
import { sampleIR } from "./testing";
import { CommandsContext } from "./useCommands";

function setup() {
  const store = createEditorStore({ ir: sampleIR() });
  store.setState({ clipboard: null });
  const commands = createCommandManager(store, editorActions);
  const wrap = ({ children }: { children: ReactNode }) => (
    <EditorStoreContext.Provider value={store}>
      <CommandsContext.Provider value={commands}>{children}</CommandsContext.Provider>
    </EditorStoreContext.Provider>
  );
  return { store, wrap };
}

afterEach(cleanup);

describe("the context menu", () => {
  it("lists every action with its keys, the ones that cannot run disabled, and runs one with the keyboard", async () => {
    const { store, wrap } = setup();
    store.getState().select({ nodes: new Set(["b"]), edges: new Set() });
    let closed = 0;
    render(<ContextMenu at={{ x: 10, y: 10 }} onClose={() => closed++} />, { wrapper: wrap });
    const menu = screen.getByRole("menu", { name: "Canvas actions" });
    const items = screen.getAllByRole("menuitem");
    expect(items.map((i) => i.firstChild?.textContent)).toEqual(editorActions.map((a) => a.label));
    expect(screen.getByRole("menuitem", { name: /Undo/ }).getAttribute("aria-disabled")).toBe("true");
    expect(screen.getByRole("menuitem", { name: /Duplicate/ }).getAttribute("aria-disabled")).toBeNull();
    expect(screen.getByRole("menuitem", { name: /Undo/ }).getAttribute("aria-keyshortcuts")).toBe("Control+Z Meta+Z");
    expect(document.activeElement).toBe(items[0]);

    fireEvent.keyDown(menu, { key: "End" });
    expect(document.activeElement).toBe(items.at(-1));
    fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(document.activeElement).toBe(items[0]);
    // the disabled Undo runs nothing and keeps the menu open
    fireEvent.keyDown(items[0]!, { key: "Enter" });
    expect(closed).toBe(0);

    const duplicate = screen.getByRole("menuitem", { name: /Duplicate/ });
    await act(async () => {
      fireEvent.keyDown(duplicate, { key: "Enter" });
    });
    expect(closed).toBe(1);
    expect(store.getState().ir.nodes.map((n) => n.name)).toEqual(["A", "B", "C", "B (copy)"]);
  });

  it("closes with Escape", () => {
    const { wrap } = setup();
    let closed = 0;
    render(<ContextMenu at={{ x: 10, y: 10 }} onClose={() => closed++} />, { wrapper: wrap });
    fireEvent.keyDown(screen.getByRole("menu"), { key: "Escape" });
    expect(closed).toBe(1);
  });
});

describe("the command palette", () => {
  beforeAll(() => {
    // jsdom has no modal dialogs: opening one marks it open, closing it closed
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.open = false;
    };
  });

  it("finds actions by name and runs the chosen one with Enter", async () => {
    const { store, wrap } = setup();
    let closed = 0;
    render(<CommandPalette onClose={() => closed++} />, { wrapper: wrap });
    const search = screen.getByRole("combobox", { name: "Search commands" });
    fireEvent.change(search, { target: { value: "select" } });
    const options = screen.getAllByRole("option");
    expect(options.map((o) => o.firstChild?.textContent)).toEqual(["Select all", "Delete selected"]);
    expect(options[0]!.getAttribute("aria-selected")).toBe("true");
    expect(search.getAttribute("aria-activedescendant")).toBe(options[0]!.id);
    // Delete selected cannot run with nothing selected
    expect(options[1]!.textContent).toContain("unavailable now");
    await act(async () => {
      fireEvent.keyDown(search, { key: "Enter" });
    });
    expect(closed).toBe(1);
    expect(store.getState().canvas.nodes.every((n) => n.selected)).toBe(true);
  });

  it("moves the choice with the arrow keys and says when nothing matches", () => {
    const { wrap } = setup();
    render(<CommandPalette onClose={() => {}} />, { wrapper: wrap });
    const search = screen.getByRole("combobox", { name: "Search commands" });
    fireEvent.keyDown(search, { key: "ArrowUp" });
    const options = screen.getAllByRole("option");
    expect(options.at(-1)!.getAttribute("aria-selected")).toBe("true");
    fireEvent.change(search, { target: { value: "zzz" } });
    expect(screen.queryAllByRole("option")).toEqual([]);
    expect(screen.getByText("No command matches “zzz”.")).toBeTruthy();
  });
});
