import type { AnchorHTMLAttributes, MouseEvent } from "react";
import { useLocation } from "wouter";
import { mayLeave } from "./leave";

// Link is an in-app link: a real <a href> (open in a new tab works), navigating without a reload, and asking first
// when the current page holds unsaved changes.
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const [, navigate] = useLocation();
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (mayLeave()) navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
