// The static edition's widgets (make html): each quiz answers back and the resample explorer
// follows its slider, in any browser, with no kernel and no network. Plain JavaScript, no
// build step. Each widget's markup comes from tools/static_widgets.py; without
// JavaScript the page shows the widget's picture of its first view instead.
"use strict";

// A quiz option's feedback is stored in base64 (UTF-8), so that the page's text names no answer.
function decoded(base64) {
  return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
}

function staticQuiz(widget) {
  const buttons = widget.querySelectorAll(".quiz-option");
  const feedback = widget.querySelectorAll(".quiz-feedback");
  for (const button of buttons) {
    button.addEventListener("click", () => {
      for (const b of buttons) b.setAttribute("aria-pressed", String(b === button));
      for (const f of feedback) {
        f.hidden = f.dataset.option !== button.dataset.option;
        if (!f.hidden && f.dataset.feedback) f.innerHTML = decoded(f.dataset.feedback);
      }
    });
  }
}

function staticExplorer(widget) {
  const data = JSON.parse(widget.querySelector(".explorer-data").textContent);
  const slider = widget.querySelector(".explorer-slider");
  const caption = widget.querySelector(".explorer-caption");
  const picture = widget.querySelector(".explorer-picture");
  const show = () => {
    const [index, text] = data.draws[Number(slider.value) - 1];
    caption.innerHTML = text;
    picture.src = data.pictures[index];
    picture.alt = `The queries draw ${slider.value} picked, and its mean among all ${slider.max} ` +
      "resample means";
  };
  slider.addEventListener("input", show);
  // Play steps through the draws in order, as the notebook's Play does (every 600 ms)
  const play = widget.querySelector(".explorer-play");
  let timer = null;
  play.addEventListener("click", () => {
    if (timer === null) {
      timer = setInterval(() => {
        slider.value = (Number(slider.value) % Number(slider.max)) + 1;
        show();
      }, 600);
    } else {
      clearInterval(timer);
      timer = null;
    }
    play.setAttribute("aria-pressed", String(timer !== null));
    play.textContent = timer === null ? "\u25B6 Play" : "\u23F8 Pause";
  });
  for (const preset of widget.querySelectorAll(".explorer-preset")) {
    preset.addEventListener("click", () => {
      slider.value = preset.dataset.k;
      show();
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const widget of document.querySelectorAll(".static-widget")) {
    const snapshot = widget.previousElementSibling;
    if (snapshot && snapshot.classList.contains("widget-snapshot")) snapshot.hidden = true;
    widget.hidden = false;
    if (widget.classList.contains("static-quiz")) staticQuiz(widget);
    if (widget.classList.contains("static-explorer")) staticExplorer(widget);
  }
});
