"use client";
// The current time, ticking every `intervalMs`, for "12 s ago" that keeps counting between
// fetches (reading the clock while rendering would not re-render).
import { useEffect, useState } from "react";

export function useNow(intervalMs = 1000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
